"""Real pastes of errors raised below JAX's Python, kept in TOML files beside the tests
(`xla_pastes.toml`, `mlir_pastes.toml`: each with its thread's URL and the entry a reader of the
thread expects), and the check every such paste passes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


def load_pastes(name: str) -> list[dict[str, Any]]:
    pastes: list[dict[str, Any]] = tomllib.loads(
        Path(__file__).with_name(name).read_text(encoding="utf-8")
    )["paste"]
    return pastes


def paste_id(paste: dict[str, Any]) -> str:
    return f"{paste['entry']}@{paste['url'].split('/', 3)[-1]}"


def reached_entry(paste: dict[str, Any], matcher: Matcher) -> dict[str, Any]:
    """The entry `explain --json` gives the paste, checked to be the expected one of XLA's."""
    explained = explain_text(paste["text"], matcher)
    assert explained, f"nothing read in {paste['url']}"
    found: dict[str, Any] | None = explained[-1].to_json()["entry"]
    assert found is not None, f"no entry for {paste['url']}: {explained[-1].traceback.message!r}"
    assert found["id"] == paste["entry"], paste["url"]
    assert found["library"] == "xla"
    return found
