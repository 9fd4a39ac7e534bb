"""Run one fix on a source string, the way the server does, and return the fixed text."""

from __future__ import annotations

from collections.abc import Mapping

from jaxerr_ls.fixes import FixContext, ProposedFix, apply_edits, fixes_at_cursor, fixes_for


def line_of(source: str, needle: str) -> int:
    """0-based line of the first line containing `needle`."""
    for index, line in enumerate(source.splitlines()):
        if needle in line:
            return index
    raise AssertionError(f"{needle!r} not in source")


def propose(
    fix_id: str,
    source: str,
    at: str,
    fields: Mapping[str, str] | None = None,
    entry: str | None = "some-entry",
) -> ProposedFix | None:
    ctx = FixContext(source, line_of(source, at), None, dict(fields or {}), entry)
    found = fixes_for([fix_id], ctx)
    assert len(found) <= 1
    return found[0] if found else None


def fixed(
    fix_id: str,
    source: str,
    at: str,
    fields: Mapping[str, str] | None = None,
    entry: str | None = "some-entry",
) -> str | None:
    proposal = propose(fix_id, source, at, fields, entry)
    return None if proposal is None else apply_edits(source, proposal.edits)


def at_cursor(source: str, at: str, column_of: str | None = None) -> dict[str, str]:
    """Fix id -> fixed text for every refactoring offered at the cursor."""
    line = line_of(source, at)
    text = source.splitlines()[line]
    column = text.index(column_of) if column_of is not None else None
    ctx = FixContext(source, line, column, {}, None)
    return {p.fix_id: apply_edits(source, p.edits) for p in fixes_at_cursor(ctx)}
