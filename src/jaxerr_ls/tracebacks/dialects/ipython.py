"""IPython, Jupyter and Colab tracebacks: classic (<= 7) and 8+ frame headers, arrow lines,
hidden and collapsed frames, `In [n]:` prompts glued to the header."""

from __future__ import annotations

import re

from jaxerr_ls.tracebacks.dialects import Parsed
from jaxerr_ls.tracebacks.dialects.common import exception_line, separator, trim_message
from jaxerr_ls.tracebacks.model import Frame, Traceback

_PROMPT = r"(?:In \[\d+\]: |\[\d+\]: )?"
RULE = re.compile(rf"^{_PROMPT}-{{20,}}\s*$")
HEADER = re.compile(
    rf"^{_PROMPT}(?P<cls>[A-Za-z_][\w.]*)\s+Traceback \(most recent call last\)\s*$"
)
# IPython 8+: `Cell In[3], line 5, in f(x)`, `File ~/x.py:12, in f(x)`, `Input In [3], in <cell>`.
CELL = re.compile(r"^(?P<path>Cell In ?\[\d+\]), line (?P<line>\d+)(?:, in (?P<func>.*\S))?\s*$")
INPUT = re.compile(r"^(?P<path>Input In ?\[\d+\]), in (?P<func>.*\S)\s*$")
FILE = re.compile(r"^File (?P<path>\S.*?):(?P<line>\d+)(?:, in (?P<func>.*\S))?\s*$")
# VS Code's notebooks of 2023: `________ Cell 4 line 9` (a rule of underscores, then the cell).
VSCODE_CELL = re.compile(r"^_{10,} (?P<path>Cell \d+) line (?P<line>\d+)\s*$")
# VS Code's notebooks of 2022: `/path/nb.ipynb Cell 11' in <module>`; line from the arrow.
VSCODE_2022 = re.compile(r"^(?P<path>\S.*?\.ipynb Cell \d+)'? in (?P<func>\S.*)$")
# IPython <= 7: `<ipython-input-3-5f2b> in <module>`, `/path/x.py in f(x)`; line from the arrow.
CLASSIC = re.compile(r"^(?P<path>\S[^\s]*(?:\.py|>)|<[^>]+>|\S+\.pyx?) in (?P<func>\S.*)$")
ARROW = re.compile(r"^\s*-*> ?(?P<line>\d+)(?: (?P<source>.*))?$")
# A numbered context line; a thread's renderer may have dropped its indentation (DMFF#82).
CONTEXT = re.compile(r"^\s*\d+(?: .*)?$")
SKIPPED = re.compile(r"^\s*(?:\[\.\.\. skipping .*\]|\(\.\.\.\)|\d+ frames?|\.\.\.)\s*$")
MESSAGE_END = re.compile(r"^(?:In \[\d+\]:|-{40,}\s*$|\S+\s+Traceback \(most recent call last\)$)")


def starts(lines: list[str], index: int) -> bool:
    if HEADER.match(lines[index]):
        return True
    if headless(lines, index):
        return True
    if RULE.match(lines[index]):
        following = _next_nonblank(lines, index + 1)
        return following is not None and HEADER.match(lines[following]) is not None
    return False


def headless(lines: list[str], index: int) -> bool:
    """Output copied from a frame on, without the header (often only the last frame): a frame
    line, then its numbered context with the `->` arrow within a few lines."""
    if _frame(lines[index]) is None or (index > 0 and lines[index - 1].startswith(" ")):
        return False
    for follow in lines[index + 1 : index + 12]:
        if ARROW.match(follow) and follow.lstrip()[:1] in ("-", ">"):
            return True
        if follow.strip() and not CONTEXT.match(follow):
            return False
    return False


def _last(lines: list[str], index: int) -> bool:
    return all(not line.strip() for line in lines[index + 1 :])


def _next_nonblank(lines: list[str], index: int, limit: int = 4) -> int | None:
    for position in range(index, min(len(lines), index + limit)):
        if lines[position].strip():
            return position
    return None


def parse(lines: list[str], index: int) -> Parsed | None:
    if RULE.match(lines[index]):
        found = _next_nonblank(lines, index + 1)
        if found is None:
            return None
        index = found
    header = HEADER.match(lines[index])
    if header is None and not headless(lines, index):
        return None
    frames: list[Frame] = []
    index += 0 if header is None else 1
    while index < len(lines):
        line = lines[index]
        frame = _frame(line)
        if frame is not None:
            frames.append(frame)
        elif (arrow := ARROW.match(line)) and frames and line.lstrip()[:1] in ("-", ">"):
            last = frames[-1]
            frames[-1] = Frame(
                last.path,
                last.line or int(arrow.group("line")),
                last.function,
                (arrow.group("source") or "").strip(),
            )
        elif not line.strip() or CONTEXT.match(line) or SKIPPED.match(line):
            pass
        elif separator(line) or RULE.match(line):
            return None
        elif line.startswith((" ", "\t")):
            pass  # wrapped context
        else:
            exception = exception_line(line)
            if exception is None:
                if header is not None and frames and _last(lines, index):
                    break  # the paste stops mid-way through a frame's line (cut below)
                return None
            return _message(lines, index, frames, exception)
        index += 1
    if header is not None and frames:
        # Cut short before its last line (a paste that stops in the frames): the header still
        # names the class; the message was not copied.
        kept = tuple(f for f in frames if f.line > 0)
        return Parsed(Traceback(header.group("cls"), "", kept), index)
    return None


def _frame(line: str) -> Frame | None:
    for pattern in (CELL, FILE, VSCODE_CELL):
        found = pattern.match(line)
        if found:
            func = found.groupdict().get("func")
            return Frame(found.group("path"), int(found.group("line")), _func(func))
    found = INPUT.match(line) or CLASSIC.match(line) or VSCODE_2022.match(line)
    if found:
        return Frame(found.group("path"), 0, _func(found.group("func")))
    return None


def _func(text: str | None) -> str:
    """`f(x, y)` -> `f`; `<cell line: 1>()` -> `<module>`."""
    if not text:
        return ""
    if text.startswith("<cell line"):
        return "<module>"
    return text.split("(", 1)[0].strip()


def _message(lines: list[str], index: int, frames: list[Frame], exception: re.Match[str]) -> Parsed:
    message = [(exception.group("msg") or "").removeprefix(" ")]
    index += 1
    while index < len(lines):
        line = lines[index]
        if MESSAGE_END.match(line) or separator(line):
            break
        message.append(line)
        index += 1
    trim_message(message)
    # A frame whose line only the arrow could give and that had none stays at line 0: drop it.
    kept = tuple(f for f in frames if f.line > 0)
    return Parsed(Traceback(exception.group("cls"), "\n".join(message), kept), index)
