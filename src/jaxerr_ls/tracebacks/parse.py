"""Text -> `Traceback`s: a normalisation pipeline, then one parser per dialect.

Pipeline: escapes/line ends/redraws and markup (`normalize`), per-line prefixes (`prefixes`),
then a scan that hands each traceback start to its dialect (rich, VS Code's debugger popup,
IPython, pytest, CPython),
links chain separators, and lets `jax` unwrap JAX's wrapper exceptions and notes. Every step is a
linear pass over capped lines; `parse_tracebacks` never raises.
"""

from __future__ import annotations

from dataclasses import replace

from jaxerr_ls.tracebacks import fragments
from jaxerr_ls.tracebacks.dialects import Parsed, cpython, debugger, ipython, pytest, rich
from jaxerr_ls.tracebacks.dialects.common import separator, short_class
from jaxerr_ls.tracebacks.jax import (
    BEFORE_TRANSFORMATION,
    JAX_NOTE_HEAD,
    clean,
    headless_wrapper,
    is_bare_note,
    is_wrapper_line,
    split_jax_note,
    without_cut_wrapper,
)
from jaxerr_ls.tracebacks.model import Traceback
from jaxerr_ls.tracebacks.normalize import clean_lines, unwrap_notebook_lines
from jaxerr_ls.tracebacks.prefixes import strip_prefixes

# Every traceback start contains one of these (headers, frames, boxes, debugger popups,
# sections, locations, rules).
_STARTS = (
    "Trace",
    "File",
    "Exception has occurred: ",
    "╭",
    "___",
    ".py:",
    "----------",
    ".py in ",
    "> in ",
    ".pyx in ",
)

__all__ = [
    "parse_lines",
    "parse_paste",
    "parse_tracebacks",
    "paste_readings",
    "paste_tracebacks",
    "split_jax_note",
]


def parse_tracebacks(text: str) -> list[Traceback]:
    """Every traceback in the text, in order; a chain becomes one Traceback with `causes`.

    JAX's bare "internal frames removed" note (`SimplifiedTraceback` with the exception it
    heads cut off or unreadable) is no error of its own: dropped, so the rest of the text is
    read instead."""
    try:
        found = parse_lines(strip_prefixes(clean_lines(text)))
    except (RecursionError, MemoryError):  # pathological nesting or size: no answer, no crash
        return []
    return [without_cut_wrapper(tb) for tb in found if not is_bare_note(tb)]


def parse_paste(text: str) -> list[Traceback]:
    """Every traceback in the text, also when escaped (JSON) or prefixed by pytest's `E`; when
    there is none, the most likely reading of a shorter paste (see `paste_readings`)."""
    return parse_tracebacks(text) or paste_tracebacks(text) or paste_readings(text)[:1]


def paste_tracebacks(text: str) -> list[Traceback]:
    """Whole tracebacks inside a JSON log record, a JSON-escaped string, or pytest `E` lines."""
    try:
        return _unwrapped(text)[0]
    except (RecursionError, MemoryError):
        return []


def paste_readings(text: str) -> list[Traceback]:
    """Readings of a paste that holds no whole traceback, most likely first: the last exception
    line with what follows it, and the whole text as a message without its class
    (`exception == ""`, for the catalog to confirm)."""
    try:
        found, lines = _unwrapped(text)
    except (RecursionError, MemoryError):
        return []
    if found:
        return []
    error = (
        fragments.json_error(text)
        or fragments.cut_json_error(text)
        or fragments.repr_error(text)
        or fragments.exception_repr(text)
    )
    if error is not None:
        return [clean(error)]
    lines = fragments.rejoin_wrapped(lines)
    exception = fragments.exception_fragment(lines)
    message = fragments.message_fragment(lines)
    readings = [exception[0] if exception else None, message]
    before = lines[: exception[1]] if exception is not None else []
    if any(line.strip() for line in before) and not fragments.only_logged(before):
        # Text before the exception line: a message that quotes an inner error ("The error
        # was:\nTypeError: ...") is read whole first; a log line before it matches nothing.
        # Log records alone before it are the program's context (jax#30050's plugin error).
        readings.reverse()
    # An error written as the text's opening comment is what the rest of the text continues.
    readings.insert(0, fragments.commented_exception(lines))
    readings.append(fragments.commented_message(lines))
    # Then what each logged line says, when neither of those names an entry; last, JAX's note
    # that heads a traceback the text stops before the end of (the error was not copied).
    readings.extend(fragments.logged_messages(lines))
    # The exception line the text opens with, when a later one is the one read above: named
    # for a class-less reading that matched an entry of its class (`explain_paste`).
    if exception is not None and exception[1] > 0:
        readings.append(fragments.opening_exception(lines))
    # The first line alone, when nothing before named an entry (`first_line_fragment`).
    readings.append(fragments.first_line_fragment(lines))
    if any(JAX_NOTE_HEAD in line for line in lines):
        readings.extend(tb for tb in parse_lines(lines) if is_bare_note(tb))
    return [clean(reading) for reading in readings if reading is not None]


def _unwrapped(text: str) -> tuple[list[Traceback], list[str]]:
    """Tracebacks found once the text is unwrapped, else its unwrapped lines."""
    record = fragments.json_strings(text)
    # A notebook file's output lines are unwrapped line by line (`clean_lines`), not as one
    # escaped string: their quotes and commas are the file's, not the message's.
    listed = unwrap_notebook_lines(text) != text
    escaped = record is None and not listed and fragments.looks_escaped(text)
    if record is not None:
        text = record
    elif escaped:
        text = fragments.unescape(text)
    # The text as given was parsed already (parse_tracebacks) by every caller.
    found = parse_tracebacks(text) if record is not None or escaped else []
    if found:
        return found, []
    lines = strip_prefixes(clean_lines(text))
    unmarked = fragments.strip_e_prefix(lines)
    if unmarked is not None:
        found = parse_lines(unmarked)
        if found:
            return found, []
        lines = unmarked
    return [], lines


def parse_lines(lines: list[str], depth: int = 0) -> list[Traceback]:
    found: list[Traceback] = []
    chained = separated = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if separator(line):
            if not found and not separated:
                # The first separator only: the text above it is read once.
                wrapper = headless_wrapper(lines[:index])
                found += [wrapper] if wrapper is not None else []
            separated = True
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
            traceback = _inherit_message(traceback)
        found.append(traceback)
        chained = False
        index = max(parsed.end, index + 1)
    return [clean(traceback) for traceback in found]


def _inherit_message(traceback: Traceback) -> Traceback:
    """A chain's last exception copied without its message (the paste stops in its frames)
    takes the message of an earlier link of the same class: JAX's filtered copy of it; or of a
    `JaxStackTraceBeforeTransformation` whose text names no class (its start not copied), which
    JAX raises before the same exception."""
    if traceback.message or not traceback.exception:
        return traceback
    cls = short_class(clean(traceback).exception)
    for cause in reversed(traceback.causes):
        cleaned = clean(cause)
        if cleaned.message and short_class(cleaned.exception) in (cls, BEFORE_TRANSFORMATION):
            return replace(traceback, message=cleaned.message)
    return traceback


def _dialect(lines: list[str], index: int, depth: int) -> Parsed | None:
    line = lines[index]
    # Cheap test first: almost every line of a long text starts nothing.
    if not any(mark in line for mark in _STARTS):
        return None
    if rich.starts(lines, index):
        return rich.parse(lines, index)
    if debugger.starts(lines, index):
        return debugger.parse(lines, index)
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
