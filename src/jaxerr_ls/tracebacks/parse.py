"""Parse CPython-style traceback text (3.10-3.13) into `Traceback`s.

Handles caret lines, `[Previous line repeated N more times]`, both chain separators, SyntaxError
blocks without a header, multi-line messages, JAX's "internal frames removed" note and several
tracebacks in one text. Line-based and regex-light: every regex is anchored and linear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from jaxerr_ls.tracebacks.model import Frame, Traceback
from jaxerr_ls.tracebacks.normalize import normalize

HEADER = re.compile(r"^\s*Traceback \(most recent call last\):\s*$")
FRAME = re.compile(r'^\s*File "(?P<path>[^"\n]+)", line (?P<line>\d+)(?:, in (?P<func>.*\S))?\s*$')
EXCEPTION = re.compile(r"^(?P<cls>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)(?::(?P<msg>.*))?$")
CARET = re.compile(r"^\s*[~^]+[~^ ]*$")
REPEATED = re.compile(r"^\s*\[Previous line repeated \d+ more times?\]\s*$")
SEPARATORS = (
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
)
JAX_NOTE_HEAD = "For simplicity, JAX has removed its internal frames"
RULE = "--------------------"
# Upper bound on the source lines kept under one frame (3.13 prints multi-line statements).
MAX_SOURCE = 1


@dataclass
class _Block:
    frames: list[Frame]
    exception: str
    message_lines: list[str]
    end: int  # index of the first line after the block


def parse_tracebacks(text: str) -> list[Traceback]:
    """Every traceback in the text, in order; a chain becomes one Traceback with `causes`."""
    lines = normalize(text).split("\n")
    found: list[Traceback] = []
    chained = False
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if stripped in SEPARATORS:
            chained = bool(found)
            index += 1
            continue
        starts_block = HEADER.match(line) is not None
        if not starts_block and FRAME.match(line) and _looks_like_syntax_error(lines, index):
            starts_block = True
            index -= 1  # the frame line itself belongs to the block
        if not starts_block:
            index += 1
            continue
        block = _parse_block(lines, index + 1)
        if block is None:
            index += 1
            continue
        traceback = _to_traceback(block)
        if chained and found:
            earlier = found.pop()
            traceback = replace(traceback, causes=(*earlier.causes, replace(earlier, causes=())))
        found.append(traceback)
        chained = False
        index = max(block.end, index + 1)
    return found


def _looks_like_syntax_error(lines: list[str], index: int) -> bool:
    """A `File "x", line N` without a header: a SyntaxError report when one follows shortly."""
    match = FRAME.match(lines[index])
    if match is None or match.group("func") is not None:
        return False
    if index > 0 and (FRAME.match(lines[index - 1]) or lines[index - 1].startswith(" ")):
        return False
    for follow in lines[index + 1 : index + 5]:
        exc = EXCEPTION.match(follow)
        if exc and exc.group("cls").rsplit(".", 1)[-1] in (
            "SyntaxError",
            "IndentationError",
            "TabError",
        ):
            return True
    return False


def _parse_block(lines: list[str], index: int) -> _Block | None:
    frames: list[Frame] = []
    source_budget = 0
    while index < len(lines):
        line = lines[index]
        frame = FRAME.match(line)
        if frame:
            frames.append(
                Frame(
                    path=frame.group("path"),
                    line=int(frame.group("line")),
                    function=(frame.group("func") or "").strip(),
                )
            )
            source_budget = MAX_SOURCE
        elif not line.strip() or CARET.match(line) or REPEATED.match(line):
            pass
        elif line[:1] in (" ", "\t"):
            if frames and source_budget > 0 and not frames[-1].source:
                frames[-1] = replace(frames[-1], source=line.strip())
            source_budget -= 1
        elif HEADER.match(line) or line.strip() in SEPARATORS:
            return None
        else:
            exception = EXCEPTION.match(line)
            if exception is None:
                return None
            return _read_message(lines, index, frames, exception)
        index += 1
    return None


def _read_message(
    lines: list[str], index: int, frames: list[Frame], exception: re.Match[str]
) -> _Block:
    message = [(exception.group("msg") or "").removeprefix(" ")]
    index += 1
    while index < len(lines):
        line = lines[index]
        if HEADER.match(line) or line.strip() in SEPARATORS or _starts_new_report(lines, index):
            break
        message.append(line)
        index += 1
    while len(message) > 1 and not message[-1].strip():
        message.pop()
    return _Block(frames, exception.group("cls"), message, index)


def _starts_new_report(lines: list[str], index: int) -> bool:
    """A SyntaxError block or a bare frame run after a blank line ends the current message."""
    return (
        index > 0
        and not lines[index - 1].strip()
        and FRAME.match(lines[index]) is not None
        and _looks_like_syntax_error(lines, index)
    )


def _to_traceback(block: _Block) -> Traceback:
    message, notes = split_jax_note("\n".join(block.message_lines))
    return Traceback(
        exception=block.exception,
        message=message,
        frames=tuple(block.frames),
        notes=notes,
    )


def split_jax_note(message: str) -> tuple[str, tuple[str, ...]]:
    """Separate JAX's "internal frames removed" note (a rule line then the note) from the text."""
    marker = f"{RULE}\n{JAX_NOTE_HEAD}"
    position = message.find(marker)
    if position < 0:
        return message, ()
    note = message[position + len(RULE) + 1 :]
    head = message[:position].rstrip("\n")
    note_text, _, after = note.partition("\n")
    rest = after.strip("\n")
    text = head if not rest else f"{head}\n{rest}"
    return text, (note_text.strip(),)
