"""Messages whose beginning the user left out and marked `...` or `…` (chex#464's before/after,
field pastes 607 and 608): what follows the mark ends one template, read backwards by the rules a
message cut at its end is read by (`catalog/partial.py`), with enough literal words of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.catalog.classes import identified_words
from jaxerr_ls.catalog.partial import MIN_READ, after_head_cut, follow_end
from jaxerr_ls.catalog.templates import cut_pieces, glued_before
from jaxerr_ls.explain import explain_text

PASTES = Path(__file__).parents[1] / "field" / "pastes"
ENTRY = "chex-assert-shape-bare-ellipsis"
TEMPLATE = (
    "[Chex] Assertion assert_shape failed: Error in shape compatibility check: expected shapes "
    "should be a list or tuple of ints, got {expected_shapes}."
)


def test_the_end_of_a_template_read_backwards() -> None:
    pieces, _ = cut_pieces(TEMPLATE)
    rest = after_head_cut("... expected shapes should be a list or tuple of ints, got Ellipsis.")
    assert rest == "expected shapes should be a list or tuple of ints, got Ellipsis."
    found = follow_end(pieces, ("expected_shapes",), rest, glued_before(TEMPLATE))
    assert found is not None
    cut, read = found
    assert cut.fields == {"expected_shapes": "Ellipsis"}
    assert read == ["expected shapes should be a list or tuple of ints, got", "."]
    assert cut.read == len("expected shapes should be a list or tuple of ints, got.")
    # The final full stop is optional, as the matcher reads a whole message.
    again = follow_end(pieces, ("expected_shapes",), "tuple of ints, got 3", ())
    assert again is not None and again[0].fields == {"expected_shapes": "3"}
    # Text that leaves the template reads next to nothing of it.
    other = follow_end(pieces, ("expected_shapes",), "tuple of floats, got 3", ())
    assert other is None or other[0].read < MIN_READ


@pytest.mark.parametrize(
    "text",
    [
        "expected shapes should be a list",  # no mark
        "... expected shapes should be a list ...",  # cut at both ends
        "...",
        "....",
    ],
)
def test_only_a_leading_mark_is_a_cut_start(text: str) -> None:
    assert after_head_cut(text) is None


def test_the_field_paste_cut_at_its_start(matcher: Matcher) -> None:
    paste = (PASTES / "607-chex-464-before-ellipsis.txt").read_text()
    found = explain_text(paste, matcher)[-1]
    assert found.traceback.exception == "AssertionError"
    match = found.match
    assert match is not None and match.entry.id == ENTRY
    assert match.cut_start and match.by == "message" and match.score < 100
    assert match.fields == {"expected_shapes": "Ellipsis"}
    assert "beginning was left out" in identified_words(match, "AssertionError")


def test_the_after_wording_of_the_pull_request(matcher: Matcher) -> None:
    # chex#464 (open) proposes it; the entry's pattern carries it, whatever the start.
    paste = (PASTES / "608-chex-464-after-ellipsis.txt").read_text()
    found = explain_text(paste, matcher)[-1]
    assert found.match is not None and found.match.entry.id == ENTRY


@pytest.mark.parametrize(
    ("exception", "message"),
    [
        ("AssertionError", "…expected shapes should be a list or tuple of ints, got Ellipsis"),
        ("", "... shapes should be a list or tuple of ints, got Ellipsis."),
    ],
)
def test_other_marks_and_no_class(matcher: Matcher, exception: str, message: str) -> None:
    found = matcher.match(exception, message)
    assert found is not None and found.entry.id == ENTRY and found.cut_start


@pytest.mark.parametrize(
    ("exception", "message"),
    [
        ("AssertionError", "... got Ellipsis."),  # too little of the template to tell
        ("ValueError", "... expected shapes should be a list or tuple of ints, got Ellipsis."),
        # Python's own sentence read from its end stays Python's, not a JAX entry's.
        ("TypeError", "... object cannot be interpreted as an integer"),
    ],
)
def test_a_cut_start_needs_enough_words_and_the_class(
    matcher: Matcher, exception: str, message: str
) -> None:
    found = matcher.match(exception, message)
    assert found is None or not found.cut_start


def test_a_message_alone_cut_at_its_start(matcher: Matcher) -> None:
    # Without its class too (a quote in a comment): read as a message, the template it ends.
    found = explain_text("... shapes should be a list or tuple of ints, got Ellipsis.\n", matcher)
    assert [e.match.entry.id if e.match else None for e in found] == [ENTRY]
    assert found[0].match is not None and found[0].match.cut_start
    # Nothing is read from a cut start that ends no template.
    assert not explain_text("... something no release of anything printed, ever.\n", matcher)
