"""Clean pasted or captured text before parsing: escape sequences, line endings, redraws, markup.

Every step is a linear pass; lines are capped so no later regex sees an unbounded line.
"""

from __future__ import annotations

import json
import re

# CSI (colours, cursor moves) and OSC (titles, shell-integration marks) sequences.
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_OTHER_ESC = re.compile(r"\x1b[@-Z\\-_]?")
# Markdown links: `[text](url)` -> text (Colab copies, VS Code notebook links).
_LINK = re.compile(r"\[([^\[\]\n]{1,500})\]\((?:https?|file|vscode[\w-]*):[^()\s]{0,2000}\)")
_FENCE = re.compile(r"^\s*(?:```|~~~)[\w+-]*\s*$")
# Longer lines are cut: real traceback lines are far shorter, and it bounds regex work per line.
MAX_LINE = 20_000


def normalize(text: str) -> str:
    """Plain text with `\\n` line ends; for a `\\r` redraw only the last segment of a line stays."""
    text = text.replace("\x00", "")
    text = _OSC.sub("", text)
    text = _CSI.sub("", text)
    text = _OTHER_ESC.sub("", text)
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        text = "\n".join(_last_redraw(line) for line in text.split("\n"))
    return text


def _last_redraw(line: str) -> str:
    segments = [segment for segment in line.split("\r") if segment.strip()]
    return segments[-1] if segments else ""


def unwrap_json(text: str) -> str:
    """VS Code's "copy output" of an error is `{"name", "message", "stack"}`: use the stack."""
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}") and '"stack"' in stripped):
        return text
    try:
        data = json.loads(stripped)
    except ValueError:
        return text
    if isinstance(data, dict) and isinstance(data.get("stack"), str):
        return str(data["stack"])
    return text


def strip_markup(lines: list[str]) -> list[str]:
    """Drop code fences, unwrap markdown links, cap line lengths."""
    out: list[str] = []
    for line in lines:
        if len(line) > MAX_LINE:
            line = line[:MAX_LINE]
        if _FENCE.match(line):
            continue
        if "](" in line:
            line = _LINK.sub(r"\1", line)
        out.append(line.rstrip())
    return out


def clean_lines(text: str) -> list[str]:
    """The whole text-level pipeline: the lines a dialect parser reads."""
    return strip_markup(normalize(unwrap_json(text)).split("\n"))
