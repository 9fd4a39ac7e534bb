"""Clean pasted or captured text before parsing: escape sequences, line endings, redraws."""

from __future__ import annotations

import re

# CSI (colours, cursor moves) and OSC (titles, shell-integration marks) sequences.
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_OTHER_ESC = re.compile(r"\x1b[@-Z\\-_]")


def normalize(text: str) -> str:
    """Plain text with `\\n` line ends; for a `\\r` redraw only the last segment of a line stays."""
    text = _OSC.sub("", text)
    text = _CSI.sub("", text)
    text = _OTHER_ESC.sub("", text)
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        text = "\n".join(_last_redraw(line) for line in text.split("\n"))
    return text


def _last_redraw(line: str) -> str:
    segments = [segment for segment in line.split("\r") if segment]
    return segments[-1] if segments else ""
