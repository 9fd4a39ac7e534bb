"""Text -> `Traceback`s: a normalisation pipeline, then one parser per dialect.

Pipeline: escapes/line ends/redraws and markup (`normalize`), per-line prefixes (`prefixes`),
then a scan that hands each traceback start to its dialect (rich, IPython, pytest, CPython),
links chain separators, and lets `jax` unwrap JAX's wrapper exceptions and notes. Every step is a
linear pass over capped lines; `parse_tracebacks` never raises.
"""

from __future__ import annotations

from dataclasses import replace

from jaxerr_ls.tracebacks.dialects import Parsed, cpython, ipython, pytest, rich
from jaxerr_ls.tracebacks.dialects.common import separator
from jaxerr_ls.tracebacks.jax import clean, is_wrapper_line, split_jax_note
from jaxerr_ls.tracebacks.model import Traceback
from jaxerr_ls.tracebacks.normalize import clean_lines
from jaxerr_ls.tracebacks.prefixes import strip_prefixes

# Every traceback start contains one of these (headers, frames, boxes, sections, locations, rules).
_STARTS = ("Trace", "File", "╭", "___", ".py:", "----------")

__all__ = ["parse_lines", "parse_tracebacks", "split_jax_note"]


def parse_tracebacks(text: str) -> list[Traceback]:
    """Every traceback in the text, in order; a chain becomes one Traceback with `causes`."""
    try:
        return parse_lines(strip_prefixes(clean_lines(text)))
    except (RecursionError, MemoryError):  # pathological nesting or size: no answer, no crash
        return []


def parse_lines(lines: list[str], depth: int = 0) -> list[Traceback]:
    found: list[Traceback] = []
    chained = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if separator(line):
            chained = bool(found)
            index += 1
            continue
        parsed = _dialect(lines, index, depth)
        if parsed is None:
            index += 1
            continue
        traceback = parsed.traceback
        if chained and found:
            earlier = found.pop()
            oldest = (*earlier.causes, replace(earlier, causes=()))
            traceback = replace(traceback, causes=(*oldest, *traceback.causes))
        found.append(traceback)
        chained = False
        index = max(parsed.end, index + 1)
    return [clean(traceback) for traceback in found]


def _dialect(lines: list[str], index: int, depth: int) -> Parsed | None:
    line = lines[index]
    # Cheap test first: almost every line of a long text starts nothing.
    if not any(mark in line for mark in _STARTS):
        return None
    if rich.starts(lines, index):
        return rich.parse(lines, index)
    if ipython.starts(lines, index):
        return ipython.parse(lines, index)
    if pytest.starts(lines, index):
        return pytest.parse(lines, index)
    if cpython.starts(lines, index):
        return cpython.parse(lines, index, lambda text, d: parse_lines(text, d), depth)
    if is_wrapper_line(line):
        # `jax.errors.SimplifiedTraceback: ...` is printed without a header or frames.
        return cpython.parse_body(lines, index)
    return None
