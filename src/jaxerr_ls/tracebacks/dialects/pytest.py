"""pytest failure reports: --tb=long/short (`>` markers, `E` lines, `path:line:` locations, chained
parts) and --tb=line. --tb=native is plain CPython and handled there."""

from __future__ import annotations

import re
from dataclasses import replace

from jaxerr_ls.tracebacks.dialects import Parsed
from jaxerr_ls.tracebacks.dialects.common import exception_line, separator, trim_message
from jaxerr_ls.tracebacks.dialects.cpython import FRAME, HEADER
from jaxerr_ls.tracebacks.jax import is_wrapper_line
from jaxerr_ls.tracebacks.model import Frame, Traceback

SECTION = re.compile(r"^_{3,} (?P<name>.+?) _{3,}$")
ENTRY_RULE = re.compile(r"^(?:_ ){3,}_?$")
# `tests/test_x.py:21: ` (long, inner), `x.py:32: ValueError` (long, crash), `x.py:9: in f` (short).
LOCATION = re.compile(
    r"^(?P<path>(?:[A-Za-z]:)?[^:\s][^:]*?):(?P<line>\d+): ?(?:in (?P<func>\S.*)|(?P<exc>[\w.]+))?$"
)
# --tb=line: `/abs/x.py:12: ValueError: message`.
ONE_LINE = re.compile(
    r"^(?P<path>(?:[A-Za-z]:)?[^:\s][^:]*?\.py):(?P<line>\d+): "
    r"(?P<cls>[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Group)): (?P<msg>.*)$"
)
E_LINE = re.compile(r"^E(?P<rest>(?: .*)?)$")
MARKED = re.compile(r"^>(?P<source>.*)$")
DEF = re.compile(r"^\s*(?:async\s+)?def (?P<name>\w+)\(")
END = re.compile(r"^(?:={3,}|_{3,} .+ _{3,}$)")


def starts(lines: list[str], index: int) -> bool:
    line = lines[index]
    if ONE_LINE.match(line):
        return True
    if is_wrapper_line(line):
        # A --tb=long/short report copied from JAX's chained `SimplifiedTraceback` line on
        # (Python < 3.11), without its section header: pytest entries, not a CPython traceback.
        for follow in lines[index + 1 : index + 4000]:
            if END.match(follow) or HEADER.match(follow):
                return False
            if E_LINE.match(follow):
                return True
        return False
    if not SECTION.match(line):
        return False
    # A section is ours when it has `E` lines before the next section (native ones have none).
    for follow in lines[index + 1 : index + 4000]:
        if END.match(follow):
            return False
        if E_LINE.match(follow):
            return True
    return False


def parse(lines: list[str], index: int) -> Parsed | None:
    one = ONE_LINE.match(lines[index])
    if one is not None:
        frame = Frame(one.group("path"), int(one.group("line")))
        return Parsed(Traceback(one.group("cls"), one.group("msg"), (frame,)), index + 1)
    end = index + 1
    while end < len(lines) and not END.match(lines[end]):
        end += 1
    parts: list[list[str]] = [[]]
    for line in lines[index + 1 : end]:
        if separator(line):
            parts.append([])
        else:
            parts[-1].append(line)
    chain = [tb for tb in (_part(part) for part in parts) if tb is not None]
    if not chain:
        return None
    return Parsed(replace(chain[-1], causes=tuple(chain[:-1])), end)


def _part(lines: list[str]) -> Traceback | None:
    frames: list[Frame] = []
    marked = ""  # the `>` line of the current long entry
    function = ""
    errors: list[str] = []
    pending: Frame | None = None  # short entry waiting for its source line
    for line in lines:
        location = LOCATION.match(line)
        error = E_LINE.match(line)
        if error is not None:
            errors.append(error.group("rest"))
        elif location is not None:
            func = (location.group("func") or function).strip()
            frame = Frame(location.group("path"), int(location.group("line")), func, marked)
            frames.append(frame)
            pending = frame if location.group("func") is not None else None
            marked, function = "", ""
        elif (found := MARKED.match(line)) is not None:
            marked = found.group("source").strip()
        elif ENTRY_RULE.match(line):
            marked, function, pending = "", "", None
        elif pending is not None and line.startswith("    ") and line.strip():
            frames[-1] = replace(pending, source=line.strip())
            pending = None
        elif (defined := DEF.match(line)) is not None:
            function = defined.group("name")
    if not errors:
        return None
    return _from_errors(errors, frames)


def _from_errors(errors: list[str], frames: list[Frame]) -> Traceback | None:
    # `E` lines keep the failing line's indentation after the `E`: remove what the first one has.
    first = errors[0]
    indent = len(first) - len(first.lstrip(" "))
    texts = [e[indent:] if e[:indent].strip() == "" else e.lstrip() for e in errors]
    for position, text in enumerate(texts):
        located = FRAME.match(text)
        if located is not None:
            # A SyntaxError's own location, printed among the `E` lines.
            following = texts[position + 1].strip() if position + 1 < len(texts) else ""
            frames = [
                *frames,
                Frame(located.group("path"), int(located.group("line")), "", following),
            ]
            continue
        exception = exception_line(text)
        if exception is not None:
            message = [(exception.group("msg") or "").removeprefix(" "), *texts[position + 1 :]]
            return Traceback(
                exception.group("cls"), "\n".join(trim_message(message)), tuple(frames)
            )
    return None
