"""CPython 3.10-3.13 tracebacks (also pytest --tb=native): frames, carets, repeats, messages,
SyntaxError blocks without a header, and ExceptionGroups drawn with `|`/`+` gutters."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from jaxerr_ls.tracebacks.dialects import Parsed
from jaxerr_ls.tracebacks.dialects.common import (
    ABSL_HEADER,
    CARRIER,
    exception_line,
    separator,
    trim_message,
)
from jaxerr_ls.tracebacks.model import Frame, Traceback

HEADER = re.compile(r"^\s*Traceback \(most recent call last\):\s*$")
_CPYTHON_FRAME = re.compile(
    # `, in` with no name after it: a paste whose line end was trimmed (mctx#97).
    r'^\s*File "(?P<path>[^"\n]+)", line (?P<line>\d+)(?:, in(?: (?P<func>.*\S))?)?\s*$'
)
# A frame line the paste starts inside of, its `File ` cut off: `"/x.py", line 191, in f`.
_CUT_FRAME = re.compile(r'^(?:[A-Za-z]{1,3} )?"[^"\n]+", line \d+, in \S')
# IPython 8+ prints a SyntaxError's location as `  File /path/x.py:5` (maybe after a prompt).
_IPYTHON_SYNTAX = re.compile(r"^(?:In \[\d+\]: )?\s+File (?P<path>[^\s\"].*?):(?P<line>\d+)\s*$")


class _Frame:
    """`FRAME.match(line)`: a CPython frame line, or IPython's SyntaxError location."""

    @staticmethod
    def match(line: str) -> re.Match[str] | None:
        return _CPYTHON_FRAME.match(line) or _IPYTHON_SYNTAX.match(line)


FRAME = _Frame()
CARET = re.compile(r"^\s*[~^]+[~^ ]*$")
REPEATED = re.compile(r"^\s*\[Previous line repeated \d+ more times?\]\s*$")
# Frames a paste elided: `...`, `[...]`, `(...)`, `...<3 lines>...`, or lines of `.` / `…`.
ELIDED = re.compile(
    r"^\s*(?:\.\.\.|\[\.\.\.\]|\(\.\.\.\)|\.\.\.<\d+ lines>\.\.\.|\.|…|\.(?: \.)+)\s*$"
)
GROUP_HEADER = re.compile(r"^(?P<indent> *)\+ Exception Group Traceback \(most recent call last\):")
MEMBER = re.compile(r"^ *\+[-+]*-+ (?:\d+|\.\.\.) -+$")
SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")
MAX_GROUP_DEPTH = 12
# Lines that end a message: something else starts (prompt, pytest section or summary).
MESSAGE_END = re.compile(
    r"^(?:In \[\d+\]:|>>> |\$(?: |$)|❯ |={5,}|_{5,} |-{40,}$"
    r"|\S+ +Traceback \(most recent call last\)$"
    r"|##\[\w+\]"  # GitHub Actions workflow commands
    rf"|{ABSL_HEADER})"  # absl / XLA log lines
)

ParseText = Callable[[list[str], int], list[Traceback]]


def starts(lines: list[str], index: int) -> bool:
    line = lines[index]
    if HEADER.match(line) or GROUP_HEADER.match(line):
        return True
    frame = FRAME.match(line)
    if frame is None:
        return False
    return looks_like_syntax_error(lines, index) or headless(lines, index, frame)


def headless(lines: list[str], index: int, frame: re.Match[str]) -> bool:
    """Frames with no `Traceback` header (Ray task errors, logging that cut it): the first
    `File "x", line N, in f` of a block, not a frame line of something else."""
    if frame.groupdict().get("func") is None:
        return False
    if index == 0:
        return True
    if index <= 2 and all(line.startswith((" ", "\t")) for line in lines[:index]):
        return True  # the paste starts inside a frame: its source line, without the frame's
    if index == 2 and _CUT_FRAME.match(lines[0]) and lines[1].startswith((" ", "\t")):
        return True  # or inside a frame's own line, before its path (jax#22990's dcface paste)
    before = lines[index - 1]
    if CARRIER.match(before):
        return False  # the frames of a traceback that exception's message carries (fragments)
    return not (FRAME.match(before) or before.startswith((" ", "\t")))


def parse(lines: list[str], index: int, recurse: ParseText, depth: int = 0) -> Parsed | None:
    group = GROUP_HEADER.match(lines[index])
    if group is not None:
        return _parse_group(lines, index, len(group.group("indent")), recurse, depth)
    start = index + 1 if HEADER.match(lines[index]) else index
    parsed = parse_body(lines, start)
    return _with_typed_input(parsed, lines, index) if parsed is not None else None


# The interactive interpreter's prompts: the statement typed, and its continuation lines.
_PROMPT = re.compile(r"^(?:>>>|\.\.\.)(?: |$)")


def _with_typed_input(parsed: Parsed, lines: list[str], header: int) -> Parsed:
    """`File "<stdin>", line 1, in <module>` prints no source: the interactive interpreter's
    input is the `>>>` block just above the traceback, its line N the frame's source."""
    frames = parsed.traceback.frames
    if not any(f.path == "<stdin>" and not f.source for f in frames):
        return parsed
    block: list[str] = []
    for line in reversed(lines[max(0, header - 50) : header]):
        if not _PROMPT.match(line):
            break
        block.insert(0, line[4:])
        if line.startswith(">>>"):
            break
    if not block or not lines[header - len(block)].startswith(">>>"):
        return parsed
    filled = tuple(
        replace(f, source=block[f.line - 1].strip())
        if f.path == "<stdin>" and not f.source and 0 < f.line <= len(block)
        else f
        for f in frames
    )
    return replace(parsed, traceback=replace(parsed.traceback, frames=filled))


def looks_like_syntax_error(lines: list[str], index: int) -> bool:
    """A `File "x", line N` without `, in f` and without a header: a SyntaxError report."""
    match = FRAME.match(lines[index])
    if match is None or match.groupdict().get("func") is not None:
        return False
    if index > 0 and (FRAME.match(lines[index - 1]) or lines[index - 1].startswith(" ")):
        return False
    for follow in lines[index + 1 : index + 6]:
        exc = exception_line(follow)
        if exc and exc.group("cls").rsplit(".", 1)[-1] in SYNTAX_ERRORS:
            return True
    return False


def parse_body(lines: list[str], index: int) -> Parsed | None:
    """Frames from `index` up to the exception line, then the message."""
    frames: list[Frame] = []
    expect_source = False
    while index < len(lines):
        line = lines[index]
        frame = FRAME.match(line)
        if frame:
            frames.append(
                Frame(
                    path=frame.group("path"),
                    line=int(frame.group("line")),
                    function=(frame.groupdict().get("func") or "").strip(),
                )
            )
            expect_source = True
        elif not line.strip() or CARET.match(line) or REPEATED.match(line) or ELIDED.match(line):
            pass
        elif line[:1] in (" ", "\t"):
            # The first indented line under a frame is its source; 3.13 may print more lines.
            if frames and expect_source:
                frames[-1] = replace(frames[-1], source=line.strip())
            expect_source = False
        elif HEADER.match(line) or separator(line):
            return None
        else:
            exception = exception_line(line)
            if exception is None:
                return None
            return _read_message(lines, index, frames, exception)
        index += 1
    return None


def _read_message(
    lines: list[str], index: int, frames: list[Frame], exception: re.Match[str]
) -> Parsed:
    message = [(exception.group("msg") or "").removeprefix(" ")]
    index += 1
    while index < len(lines):
        line = lines[index]
        if HEADER.match(line) or separator(line) or MESSAGE_END.match(line):
            break
        if GROUP_HEADER.match(line) or (
            not lines[index - 1].strip()
            and FRAME.match(line)
            and looks_like_syntax_error(lines, index)
        ):
            break
        message.append(line)
        index += 1
    trim_message(message)
    traceback = Traceback(exception.group("cls"), "\n".join(message), tuple(frames))
    return Parsed(traceback, index)


def _parse_group(
    lines: list[str], index: int, indent: int, recurse: ParseText, depth: int
) -> Parsed | None:
    """`+ Exception Group Traceback` at `indent`: the group, its members parsed as causes."""
    own = " " * indent + "| "
    inner = " " * (indent + 2)
    top: list[str] = ["Traceback (most recent call last):"]
    members: list[list[str]] = []
    end = index + 1
    while end < len(lines):
        line = lines[end]
        if line.startswith(own) or line == own.rstrip():
            top.append(line[len(own) :])
        elif MEMBER.match(line) and line.startswith((" " * indent + "+", inner + "+")):
            members.append([])
        elif line.startswith(inner) and members:
            members[-1].append(line[len(inner) + 2 :] if line[len(inner) :][:1] == "|" else "")
        elif line.startswith(inner + "+") or (line.startswith(" " * indent + "+") and members):
            pass  # the closing rule of the group
        else:
            break
        end += 1
    body = parse_body(top, 1)
    if body is None:
        return None
    causes: list[Traceback] = []
    if depth < MAX_GROUP_DEPTH:
        for member in members:
            parsed = recurse(member, depth + 1)
            bare = parse_body(member, 0) if not parsed else None  # a member without frames
            causes.extend(parsed or ([bare.traceback] if bare else []))
    group = body.traceback
    return Parsed(replace(group, causes=(*group.causes, *causes)), end)
