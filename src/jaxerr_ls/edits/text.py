"""Plain-text helpers: applying edits and following a position through them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from jaxerr_ls.edits import TextEdit

_NEWLINE = re.compile(r"\r\n|\r|\n")


def line_starts(source: str) -> list[int]:
    """Offset of each line's first character (LSP line breaks: \\n, \\r\\n, \\r)."""
    return [0] + [m.end() for m in _NEWLINE.finditer(source)]


def offset_of(source: str, starts: Sequence[int], line: int, col: int) -> int:
    """Offset of a (line, code-point column); out-of-range positions clamp to the text."""
    if line < 0:
        return 0
    if line >= len(starts):
        return len(source)
    start = starts[line]
    end = starts[line + 1] if line + 1 < len(starts) else len(source)
    text = _NEWLINE.sub("", source[start:end])
    return start + max(0, min(col, len(text)))


def position_of(source: str, starts: Sequence[int], offset: int) -> tuple[int, int]:
    lo, hi = 0, len(starts) - 1
    while lo < hi:  # last line start <= offset
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo, offset - starts[lo]


def sorted_disjoint(edits: Sequence[TextEdit]) -> bool:
    """True when the edits are sorted and well formed, and no two overlap or share an insertion."""
    spans = [((e.start_line, e.start_col), (e.end_line, e.end_col)) for e in edits]
    if any(start > end for start, end in spans):
        return False
    for (a_start, a_end), (b_start, b_end) in zip(spans, spans[1:], strict=False):
        if a_end > b_start:
            return False
        if a_start == b_start and not (a_start == a_end and b_start < b_end):
            return False  # only an insertion before a replacement may share a start
    return True


def apply_edits(source: str, edits: Sequence[TextEdit]) -> str:
    """Apply non-overlapping edits (any order) to the text."""
    starts = line_starts(source)
    spans = sorted(
        (
            offset_of(source, starts, e.start_line, e.start_col),
            offset_of(source, starts, e.end_line, e.end_col),
            e.new_text,
        )
        for e in edits
    )
    out: list[str] = []
    cursor = 0
    for start, end, text in spans:
        start = max(start, cursor)
        out.append(source[cursor:start])
        out.append(text)
        cursor = max(cursor, end)
    out.append(source[cursor:])
    return "".join(out)


def map_position(source: str, edits: Sequence[TextEdit], line: int, col: int) -> tuple[int, int]:
    """Where (line, col) of `source` lands after the edits (edits ending at it move it)."""
    starts = line_starts(source)
    offset = offset_of(source, starts, line, col)
    shift = 0
    for e in edits:
        start = offset_of(source, starts, e.start_line, e.start_col)
        end = offset_of(source, starts, e.end_line, e.end_col)
        if end <= offset and start <= offset:
            shift += len(e.new_text) - (end - start)
    new_source = apply_edits(source, edits)
    return position_of(new_source, line_starts(new_source), offset + shift)


def combine(edits: Sequence[TextEdit]) -> tuple[TextEdit, ...]:
    """Sort edits; insertions at one point become one edit, in the order they were given."""
    ordered = sorted(
        enumerate(edits),
        key=lambda p: (p[1].start_line, p[1].start_col, p[1].end_line, p[1].end_col, p[0]),
    )
    out: list[TextEdit] = []
    for _, edit in ordered:
        prev = out[-1] if out else None
        if (
            prev is not None
            and (prev.start_line, prev.start_col) == (prev.end_line, prev.end_col)
            and (edit.start_line, edit.start_col) == (edit.end_line, edit.end_col)
            and (prev.start_line, prev.start_col) == (edit.start_line, edit.start_col)
        ):
            out[-1] = TextEdit(
                prev.start_line,
                prev.start_col,
                prev.end_line,
                prev.end_col,
                prev.new_text + edit.new_text,
            )
        else:
            out.append(edit)
    return tuple(out)
