"""Older releases' wordings of curated entries: each proved by the traceback that release
printed for the entry's example (scripts/capture_examples.py), and loaded with validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog.load import EntryError, entry_from_dict
from jaxerr_ls.explain import explain_text

RELEASES = Path(__file__).resolve().parent / "releases"
CATALOG = load_catalog()
AUTHORED = {
    "tree-map-structure-mismatch": ("0.4.38", "0.6.2"),
    "pallas-specs-pytree-mismatch": ("0.4.38",),
    "pure-callback-result-mismatch": ("0.4.38",),
}
CASES = [(entry, release) for entry, releases in AUTHORED.items() for release in releases]


@pytest.mark.parametrize(("entry_id", "release"), CASES)
def test_older_wording_reaches_entry(entry_id: str, release: str) -> None:
    entry = CATALOG.get(entry_id)
    assert entry is not None and any(release in w.versions for w in entry.wordings)
    text = (RELEASES / release / f"{entry_id}.plain.txt").read_text(encoding="utf-8")
    found = explain_text(text, Matcher(CATALOG))[-1]
    assert found.match is not None and found.match.entry.id == entry_id
    # Without the older wordings the same traceback reaches nothing (or something else).
    stripped = [e if e.id != entry_id else _without_wordings(e) for e in CATALOG.entries]
    bare = Matcher(type(CATALOG).of(stripped, CATALOG.jax_version))
    again = explain_text(text, bare)[-1]
    assert again.match is None or again.match.entry.id != entry_id


def _without_wordings(entry):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    return replace(entry, wordings=())


def test_min_jax_marks_examples_newer_releases_need() -> None:
    marked = {e.id: e.min_jax for e in CATALOG.curated if e.min_jax}
    assert marked["eager-shard-map-ref"] == "0.7.2"  # jax.new_ref
    assert marked["lax-pvary-removed"] == "0.8.2"  # jax.lax.pcast
    assert CATALOG.get("eager-shard-map-ref").full_json()["min_jax"] == "0.7.2"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"min_jax": "soon"}, "min_jax"),
        ({"wordings": [{"message": "x {"}]}, "wordings"),
        ({"wordings": [{"message": "old text", "versions": []}]}, "wordings"),
        ({"wordings": [{"message": "old text", "versions": ["0.4"]}]}, "wordings"),
        ({"wordings": "old text"}, "wordings"),
    ],
)
def test_bad_wordings_and_min_jax_are_reported(extra: dict[str, object], field: str) -> None:
    data = {"id": "x", "exception": "ValueError", "message": "some message here", **extra}
    with pytest.raises(EntryError) as caught:
        entry_from_dict(data, curated=False)
    assert caught.value.field == field
