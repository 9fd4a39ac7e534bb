"""Errors Pallas's compilers word as MLIR diagnostics (Mosaic TPU, Mosaic GPU, Triton), as users
pasted them in public threads (`mlir_pastes.toml`, each with its URL), reach the entry a reader of
the thread expects: the diagnostic's own entry, not only the wrapper around it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog.mlir import is_diagnostic
from jaxerr_ls.explain import explain_text
from tests.catalog.below_pastes import load_pastes, paste_id, reached_entry

ROOT = Path(__file__).resolve().parents[2]
PASTES = load_pastes("mlir_pastes.toml")
CATALOG = load_catalog()


@pytest.mark.parametrize("paste", PASTES, ids=paste_id)
def test_paste_reaches_its_entry(paste: dict[str, Any], matcher: Matcher) -> None:
    found = reached_entry(paste, matcher)
    assert found["identified_by"] == "message" and found["score"] == 100


def test_the_diagnostic_entries_name_their_cpp_site_and_thread() -> None:
    for paste in PASTES:
        entry = CATALOG.get(paste["entry"])
        assert entry is not None and entry.curated, paste["entry"]
        assert paste["url"] in entry.evidence, (paste["entry"], paste["url"])
        if entry.id != "mosaic-tpu-compile-failed":
            assert is_diagnostic(entry), entry.id
            assert entry.proof_skip and entry.solutions


def test_a_pasted_mosaic_error_through_explain_json() -> None:
    """What a user sees: `jaxerr-ls explain --json` on the paste of jax#18370 (an `MLIRError`
    whose diagnostic names the op: `'vector.transpose' op Padded transposes unsupported`)."""
    (paste,) = [p for p in PASTES if p["url"].endswith("/18370")]
    done = subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", "explain", "-", "--json"],
        input=paste["text"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    (found,) = json.loads(done.stdout)["tracebacks"]
    assert found["entry"]["id"] == "mosaic-padded-transpose"
    assert found["entry"]["identified_by"] == "message"
    assert found["entry"]["library"] == "xla"


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        # As MLIR prints an op verifier's error, with the location before it.
        (
            "error: loc(\"/swap\"): 'tpu.memref_slice' op Indices and slice shapes must match.",
            {},
        ),
        # Inside Mosaic's wrapper, a value streamed into the text (`<< op->getName()`).
        (
            "XlaRuntimeError: INTERNAL: Mosaic failed to compile TPU kernel: Not implemented: "
            "Unsupported vector layout in vector.load\n\nThe MLIR operation involved:\n  %12 = ...",
            {"op_name": "vector.load"},
        ),
    ],
)
def test_generated_diagnostics_are_matched_where_they_start(
    text: str, fields: dict[str, str], matcher: Matcher
) -> None:
    (explained,) = explain_text(text, matcher)
    found = explained.to_json()
    assert found["entry"] is not None and found["entry"]["id"].startswith("mlir-")
    assert found["entry"]["identified_by"] == "message"
    assert found["fields"] == fields
    entry = CATALOG.get(found["entry"]["id"])
    assert entry is not None and entry.raised_at[0].file.startswith("jaxlib/mosaic/")
    assert entry.raised_at[0].jax.startswith("jax-ml/jax@")
