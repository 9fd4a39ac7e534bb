"""rich.traceback panels: `╭─ Traceback (most recent call last) ─╮` boxes whose frames are
`path:line in name` headers with numbered code (`❱` marks the line); the exception is printed
below the box, without its module."""

from __future__ import annotations

import re

from jaxerr_ls.tracebacks.dialects import Parsed
from jaxerr_ls.tracebacks.dialects.common import exception_line, separator, trim_message
from jaxerr_ls.tracebacks.model import Frame, Traceback

TOP = re.compile(r"^\s*╭─+ Traceback \(most recent call last\) ─+╮\s*$")
BOTTOM = re.compile(r"^\s*╰─+╯\s*$")
ROW = re.compile(r"^\s*│(?P<body>.*?)│?\s*$")
HEAD = re.compile(r"^(?P<path>\S.*?):(?P<line>\d+) in (?P<func>\S+)\s*$")
PSEUDO = re.compile(r"^in (?P<func>\S+)\s*$")
CODE = re.compile(r"^(?P<mark>❱)?\s*(?P<line>\d+) ?(?P<source>.*)$")
MESSAGE_END = re.compile(r"^(?:\s*╭─|\S+\s+Traceback \(most recent call last\)$|In \[\d+\]:)")


def starts(lines: list[str], index: int) -> bool:
    return TOP.match(lines[index]) is not None


def parse(lines: list[str], index: int) -> Parsed | None:
    rows: list[str] = []
    index += 1
    while index < len(lines) and not BOTTOM.match(lines[index]):
        row = ROW.match(lines[index])
        rows.append(row.group("body").strip() if row else lines[index].strip())
        index += 1
    index += 1
    frames = _frames(rows)
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index >= len(lines):
        return None
    exception = exception_line(lines[index])
    if exception is None:
        return None
    message = [(exception.group("msg") or "").removeprefix(" ")]
    index += 1
    while (
        index < len(lines) and not MESSAGE_END.match(lines[index]) and not separator(lines[index])
    ):
        message.append(lines[index].rstrip())
        index += 1
    text = "\n".join(trim_message(message))
    return Parsed(Traceback(exception.group("cls"), text, tuple(frames)), index)


def _frames(rows: list[str]) -> list[Frame]:
    frames: list[Frame] = []
    carry = ""  # a long path folded over two rows
    for row in rows:
        head = HEAD.match(carry + row)
        if head is not None:
            frames.append(Frame(head.group("path"), int(head.group("line")), head.group("func")))
            carry = ""
            continue
        pseudo = PSEUDO.match(row)
        if pseudo is not None:
            carry = ""
            continue
        code = CODE.match(row)
        if code is not None and code.group("mark") and frames:
            last = frames[-1]
            # Indentation guides (`│`) are drawn inside the code.
            source = code.group("source").replace("│", " ").strip()
            frames[-1] = Frame(last.path, last.line, last.function, source)
            carry = ""
        elif row and not code and ("/" in row or "\\" in row) and " " not in row:
            carry += row
        else:
            carry = ""
    return frames
