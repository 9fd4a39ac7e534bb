"""Errors raised below JAX's Python, as users pasted them in public threads (`xla_pastes.toml`,
each with its URL), reach the entry a reader of the thread expects, and say what to check."""

from __future__ import annotations

from typing import Any

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from tests.catalog.below_pastes import load_pastes, paste_id, reached_entry

PASTES = load_pastes("xla_pastes.toml")
CATALOG = load_catalog()


@pytest.mark.parametrize("paste", PASTES, ids=paste_id)
def test_paste_reaches_its_entry(paste: dict[str, Any], matcher: Matcher) -> None:
    reached_entry(paste, matcher)


def test_every_paste_names_a_curated_xla_entry() -> None:
    for paste in PASTES:
        entry = CATALOG.get(paste["entry"])
        assert entry is not None and entry.curated and entry.library == "xla", paste["entry"]


def test_curated_runtime_entries_say_what_to_check() -> None:
    below = [e for e in CATALOG.curated if e.library == "xla"]
    assert len(below) >= 30
    for entry in below:
        assert entry.solutions and entry.triggers, entry.id
        assert entry.evidence and entry.frequency > 0, entry.id
        assert entry.example is not None or entry.proof_skip, entry.id


def test_generated_messages_carry_their_status_and_library() -> None:
    generated = [e for e in CATALOG.entries if e.library == "xla" and not e.curated]
    assert len(generated) > 1000
    statuses = {e.message.split(":", 1)[0] for e in generated if e.exception == "XlaRuntimeError"}
    assert {"INTERNAL", "INVALID_ARGUMENT", "RESOURCE_EXHAUSTED", "UNIMPLEMENTED"} <= statuses
    sites = [site for e in generated for site in e.raised_at]
    assert all(site.file.startswith(("xla/", "jaxlib/", "tensorflow/")) for site in sites)
    # Files of TensorFlow's tree (XLA before openxla/xla) were read one by one: each site names
    # the commit its file was read at.
    old = [site for site in sites if site.file.startswith("tensorflow/")]
    assert old and all(site.jax.startswith("tensorflow/tensorflow@") for site in old)
