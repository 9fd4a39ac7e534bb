"""Older releases' wordings of curated entries: each proved by the traceback that release
printed for the entry's example (scripts/capture_examples.py), and loaded with validation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog.load import EntryError, entry_from_dict
from jaxerr_ls.explain import explain_text

RELEASES = Path(__file__).resolve().parent / "releases"
CATALOG = load_catalog()
# Entry -> releases whose traceback of the entry's example (releases/<release>/<id>.plain.txt)
# is printed in an older wording: a curator's, or one the index lends the entry.
AUTHORED = {
    "tree-map-structure-mismatch": ("0.4.38", "0.6.2", "0.8.2"),
    "device-put-sharding-not-divisible": ("0.6.2", "0.8.2"),
    "pallas-specs-pytree-mismatch": ("0.4.38",),
    "pure-callback-result-mismatch": ("0.4.38",),
    "cond-branch-output-mismatch": ("0.4.26", "0.4.38", "0.5.3"),
    "custom-jvp-tangent-type-mismatch": ("0.4.26",),
    "immutable-array-item-assignment": ("0.4.26",),
    "jit-argument-invalid-type": ("0.4.26",),
    "jit-return-invalid-type": ("0.4.26", "0.4.38"),
    "lax-dtype-mismatch": ("0.4.26",),
    "pallas-index-map-wrong-length": ("0.4.38",),
    "pallas-ref-arithmetic-without-load": ("0.4.26", "0.4.38", "0.6.2"),
    "partition-spec-duplicate-axis": ("0.4.38",),
    "random-choice-sample-too-large": ("0.4.26",),
    "scan-carry-type-mismatch": ("0.4.26", "0.4.38"),
    "stack-shape-mismatch": ("0.4.26", "0.4.38", "0.6.2"),
    "static-arg-jax-array": ("0.4.26", "0.4.38"),
    "too-many-indices": ("0.4.26", "0.4.38", "0.6.2"),
    "traced-slice-bounds": ("0.4.26", "0.4.38", "0.6.2"),
    "vmap-in-axes-not-tree-prefix": ("0.4.26", "0.4.38", "0.6.2"),
    "vmap-no-mapped-axis": ("0.4.26", "0.4.38", "0.6.2"),
    "vmap-out-axes-none-mapped-output": ("0.4.26",),
}
CASES = [(entry, release) for entry, releases in AUTHORED.items() for release in releases]
# Releases before the main index cannot run here: a curator's wording of theirs is backed by a
# user's paste of what they printed (tests/catalog/older/, each thread in SOURCES.md).
OLDER = Path(__file__).resolve().parent / "older"
PASTED = {
    "tracer-integer-conversion": ("jax-5853.txt",),
    "safe-map-length-mismatch": ("jax-12611.txt",),
}


@pytest.mark.parametrize(("entry_id", "release"), CASES)
def test_older_wording_reaches_entry(entry_id: str, release: str) -> None:
    entry = CATALOG.get(entry_id)
    assert entry is not None and any(release in w.versions for w in entry.wordings)
    text = (RELEASES / release / f"{entry_id}.plain.txt").read_text(encoding="utf-8")
    found = explain_text(text, Matcher(CATALOG))[-1]
    assert found.match is not None and found.match.entry.id == entry_id
    stripped = [e if e.id != entry_id else _without_wordings(e) for e in CATALOG.entries]
    bare = Matcher(type(CATALOG).of(stripped, CATALOG.jax_version))
    again = explain_text(text, bare)[-1]
    # Without the older wordings the same traceback reaches nothing, something else, or the
    # entry less surely (the message fits, the class the release raised does not); unless one
    # of the entry's patterns was written to read that release's text too (the wording then
    # states the releases, not how it is found).
    by_pattern = any(
        re.search(pattern, found.traceback.message, re.DOTALL | re.MULTILINE)
        for pattern in entry.patterns
    )
    assert (
        again.match is None
        or again.match.entry.id != entry_id
        or again.match.score < 100
        or by_pattern
    )


def _library_texts() -> set[tuple[str, str, str]]:
    """(library, class, template) of every wording the library indexes hold: read from the
    sources of the library's releases (`jaxerr-ls catalog extract --library`)."""
    from jaxerr_ls.catalog.libraries import library_files, library_name
    from jaxerr_ls.catalog.load import load_index
    from jaxerr_ls.catalog.templates import short_class

    base = Path(__file__).resolve().parents[2] / "catalog"
    found: set[tuple[str, str, str]] = set()
    for path in library_files(base):
        name = library_name(path)
        for entry in load_index(path)[0].entries:
            for text, cls in (
                (entry.message, entry.exception),
                *((w.message, w.exception or entry.exception) for w in entry.wordings),
            ):
                found.add((str(name), short_class(cls), text))
    return found


def test_every_curated_wording_is_proved_by_a_saved_traceback() -> None:
    """A wording a curator wrote is backed by what one of its releases printed: a traceback
    saved here, or (a release before the main index) a user's paste of it; a library's (Flax,
    Equinox, ...) by its index, the text as that library's releases raise it."""
    from jaxerr_ls.catalog.model import LIBRARIES
    from jaxerr_ls.catalog.templates import short_class

    library_texts = _library_texts()
    for entry in CATALOG.curated:
        for wording in (w for w in entry.wordings if w.curated):
            if entry.id in PASTED and all(_before_main_index(v) for v in wording.versions):
                continue  # test_an_older_wording_is_proved_by_a_paste
            if entry.library in LIBRARIES:
                cls = short_class(wording.exception or entry.exception)
                assert (entry.library, cls, wording.message) in library_texts, (
                    entry.id,
                    wording.message[:60],
                )
                continue
            proved = [r for r in AUTHORED.get(entry.id, ()) if r in wording.versions]
            assert proved, (entry.id, wording.message[:60])
            assert all((RELEASES / r / f"{entry.id}.plain.txt").exists() for r in proved)


@pytest.mark.parametrize(("entry_id", "paste"), [(e, p) for e, ps in PASTED.items() for p in ps])
def test_an_older_wording_is_proved_by_a_paste(entry_id: str, paste: str) -> None:
    text = (OLDER / paste).read_text(encoding="utf-8")
    assert paste in (OLDER / "SOURCES.md").read_text(encoding="utf-8")
    found = explain_text(text, Matcher(CATALOG))[-1]
    assert found.match is not None and found.match.entry.id == entry_id
    assert found.match.score == 100  # the wording's class is the class the paste printed
    entry = CATALOG.get(entry_id)
    assert entry is not None
    bare = Matcher(type(CATALOG).of(_stripped(entry_id), CATALOG.jax_version))
    again = explain_text(text, bare)[-1]
    assert again.match is None or again.match.entry.id != entry_id or again.match.score < 100


def _stripped(entry_id: str) -> list:  # type: ignore[type-arg]
    return [e if e.id != entry_id else _without_wordings(e) for e in CATALOG.entries]


def _before_main_index(release: str) -> bool:
    return tuple(int(part) for part in release.split(".")) < (0, 4, 26)


def test_an_older_class_is_kept_and_shown() -> None:
    """0.4.38 raised a plain ValueError where 0.5.3 on raise DuplicateSpecError."""
    entry = CATALOG.get("partition-spec-duplicate-axis")
    assert entry is not None and entry.exception == "DuplicateSpecError"
    [old] = [w for w in entry.wordings if w.curated]
    assert old.exception == "ValueError" and "0.4.38" in old.versions
    assert {"message": old.message, "versions": list(old.versions), "exception": "ValueError"} in (
        entry.full_json()["wordings"]  # type: ignore[operator]
    )


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
        (
            {"wordings": [{"message": "old text", "versions": ["0.4.38"], "exception": "a b"}]},
            "wordings",
        ),
        ({"wordings": [{"message": "old text", "versions": ["0.4.38"], "note": "x"}]}, "wordings"),
    ],
)
def test_bad_wordings_and_min_jax_are_reported(extra: dict[str, object], field: str) -> None:
    data = {"id": "x", "exception": "ValueError", "message": "some message here", **extra}
    with pytest.raises(EntryError) as caught:
        entry_from_dict(data, curated=False)
    assert caught.value.field == field
