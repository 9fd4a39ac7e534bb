"""The VS Code (debugpy) "Exception has occurred" popup, copied: the class on its own line, the
message (shown in bold, so a copy may keep `**` around it), then the frames as CPython prints
them, outermost first."""

from __future__ import annotations

import re
from dataclasses import replace

from jaxerr_ls.tracebacks.dialects import Parsed
from jaxerr_ls.tracebacks.dialects.common import trim_message
from jaxerr_ls.tracebacks.dialects.cpython import FRAME
from jaxerr_ls.tracebacks.model import Frame, Traceback

HEAD = re.compile(r"^\s*Exception has occurred: (?P<cls>[A-Za-z_][\w.]*)\s*$")
_BOLD = re.compile(r"^\*\*(?P<text>.*?)\*\*(?P<end>[.:]?)$", re.DOTALL)


def starts(lines: list[str], index: int) -> bool:
    return HEAD.match(lines[index]) is not None


def parse(lines: list[str], index: int) -> Parsed | None:
    head = HEAD.match(lines[index])
    if head is None:
        return None
    end = index + 1
    while end < len(lines) and not FRAME.match(lines[end]):
        end += 1
    message = "\n".join(trim_message([line.rstrip() for line in lines[index + 1 : end]])).strip()
    bold = _BOLD.match(message)
    if bold is not None:
        message = bold.group("text") + bold.group("end")
    frames: list[Frame] = []
    while end < len(lines):
        frame = FRAME.match(lines[end])
        if frame is not None:
            function = (frame.groupdict().get("func") or "").strip()
            frames.append(Frame(frame.group("path"), int(frame.group("line")), function))
        elif lines[end][:1] in (" ", "\t") and lines[end].strip():
            if frames and not frames[-1].source:
                frames[-1] = replace(frames[-1], source=lines[end].strip())
        else:
            break
        end += 1
    return Parsed(Traceback(head.group("cls"), message, tuple(frames)), end)
