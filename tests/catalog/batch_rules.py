"""What the batch-rule tests ask of an explanation: the entry a paste reaches and how, and the
entry a message names for sure."""

from __future__ import annotations

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from tests.field.measure_pastes import paste_text


def entry_found(number: str, matcher: Matcher) -> tuple[str | None, str | None]:
    """(entry id, how it was identified) of the last explanation of a tuned paste."""
    explained = explain_text(paste_text(number), matcher)
    assert explained, number
    match = explained[-1].match
    return (match.entry.id, match.by) if match is not None else (None, None)


def printed_and_entry(number: str, matcher: Matcher) -> tuple[str, str | None]:
    """(the class as read, the entry id) of the last explanation of a tuned paste."""
    explained = explain_text(paste_text(number), matcher)
    assert explained, number
    match = explained[-1].match
    return explained[-1].traceback.exception, match.entry.id if match is not None else None


def named_for_sure(matcher: Matcher, exception: str, message: str) -> str | None:
    """The entry the message names with a full score, or None (a guess is no name)."""
    found = matcher.match(exception, message)
    return found.entry.id if found is not None and found.score == 100 else None
