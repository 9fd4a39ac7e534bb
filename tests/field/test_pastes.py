"""Every paste of the field corpus: read right, and (JAX's stack) explained by an entry of its
class; the expected misses, each with its reason, stay true (a miss that now hits fails: remove
it with `python -m tests.field.measure_pastes --update-misses`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from tests.field.measure_pastes import (
    HOLDOUT,
    PASTES,
    Outcome,
    Record,
    expected_misses,
    load_index,
    measure_one,
    ok,
)

RECORDS = load_index()
CATEGORIES = {
    "current",
    "older-wording",
    "runtime-xla",
    "gpu-library",
    "version-skew",
    "pallas",
    "library",
    "form",
    "cut-short",
    "non-jax",
}


@cache
def _matcher() -> Matcher:
    return Matcher(load_catalog())


def _outcome(record: Record) -> Outcome:
    return measure_one(record, _matcher())


@pytest.mark.parametrize("directory", [PASTES, HOLDOUT], ids=["pastes", "holdout"])
def test_index_describes_every_paste(directory: Path) -> None:
    records = load_index(directory)
    files = {path.name for path in directory.glob("*.txt")}
    assert files == {record.file for record in records}
    assert len(records) >= (200 if directory == PASTES else 10)
    for record in records:
        # A public thread: GitHub's, or a forum's or a blog's page (the twenty-eighth batch).
        assert record.url.startswith("https://"), record.file
        assert record.category in CATEGORIES, record.file
        text = record.text()
        if record.exception:
            assert record.exception.rsplit(".", 1)[-1] in text, record.file
        if record.message_start:
            assert record.message_start in text, record.file


def test_expected_misses_name_pastes() -> None:
    assert set(expected_misses()) <= {record.file for record in RECORDS}


@pytest.mark.parametrize("record", RECORDS, ids=[r.file for r in RECORDS])
def test_paste(record: Record) -> None:
    outcome = _outcome(record)
    reason = expected_misses().get(record.file)
    if reason is None:
        assert outcome.parsed, f"read {outcome.exception!r}: {outcome.message[:120]!r}"
        if record.jax_stack:
            assert outcome.reached, "no entry"
            assert outcome.right_class, f"{outcome.entry_id} is of another class"
    else:
        assert not ok(outcome), f"expected to miss ({reason}) but now explained: update the list"


def test_explain_json_says_how_each_entry_was_found() -> None:
    """`identified_by` is in every entry object of `explain --json`."""
    from jaxerr_ls.explain import explain_text

    seen: set[str] = set()
    for record in RECORDS:
        for explanation in explain_text(record.text(), _matcher()):
            entry = explanation.to_json()["entry"]
            if isinstance(entry, dict):
                assert entry["identified_by"] in {"message", "class", "raise_site"}
                seen.add(str(entry["identified_by"]))
    assert {"message", "class"} <= seen


def test_the_readmes_figures_are_what_the_pastes_measure() -> None:
    """The README's last rows (the JAX stack, tuned-on and unseen; and those of its pastes that
    hold their message) are what this corpus gives now: a catalog change that moves them moves
    the README with them."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    rows = [
        next(line for line in readme.splitlines() if line.startswith(start))
        for start in ("| **all of the JAX stack", "| of them, pasted with their message")
    ]
    claimed = [[cell.strip("* ").split(" ")[0] for cell in row.split("|")[2:4]] for row in rows]
    measured: list[list[str]] = [[], []]
    for directory in (PASTES, HOLDOUT):
        stack = [(r, _outcome(r)) for r in load_index(directory) if r.jax_stack]
        whole = [o for r, o in stack if r.message_start]
        measured[0].append(f"{sum(o.right_class for _, o in stack)}/{len(stack)}")
        measured[1].append(f"{sum(o.right_class for o in whole)}/{len(whole)}")
    assert claimed == measured
