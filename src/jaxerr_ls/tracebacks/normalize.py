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
# VS Code's line links to an unsaved file keep no scheme once pasted: `[5](untitled-1:5)`.
_LINK = re.compile(
    r"\[([^\[\]\n]{1,500})\]\((?:https?|file|vscode[\w-]*):[^()\s]{0,2000}\)"
    r"|\[(\d{1,7})\]\([\w.-]{1,200}:\d{1,7}\)"
)
# The same links' text alone, their address dropped by the page it was pasted into: a context
# line's number in brackets (`--> [336]  return func(...)`).
_BARE_LINE_LINK = re.compile(r"^(\s*(?:-*> ?)?)\[(\d{1,7})\](?=\s|$)")
_FENCE = re.compile(r"^\s*(?:```|~~~)[\w+-]*\s*$")
# A whole line set in markdown bold, as an issue's text shows an error outside a code block
# (`**ValueError: ...**`): the closing `**` would end the message. In italics (`_..._`, `*...*`)
# only an exception line (`_IndexError: ..._`): a name in underscores is Python's.
_BOLD_LINE = re.compile(r"^\s*\*\*(?P<inner>[^*\s](?:[^*]*[^*\s])?)\*\*\s*$")
_ITALIC_LINE = re.compile(
    r"^\s*(?P<mark>\*|_{1,2})(?P<inner>[A-Za-z][\w.]*: \S(?:.*\S)?)(?P=mark)\s*$"
)
# VS Code's error copy, possibly cut short: `{"name": "...", "message": "...", "stack": "...`.
_STRING = r'(?:[^"\\]|\\.)*'
_COPY = re.compile(
    rf'^\{{\s*"name":\s*"(?P<name>{_STRING})",\s*"message":\s*"(?P<message>{_STRING})",'
    r'\s*"stack":\s*"(?P<stack>.*)$',
    re.DOTALL,
)
_COPY_END = re.compile(r'"\s*\}?\s*$')
_JSON_ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])')
_PYCHARM = "python-BaseException"
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
    """VS Code's "copy output" of an error is `{"name", "message", "stack"}`: use the stack.

    VS Code writes the stack's line ends and tabs raw (not valid strict JSON) and escapes its
    quotes (`File \\"x.py\\"`); a copy cut short before its closing brace is read field by field,
    its stack ended by the `name: message` line the copy states."""
    stripped = text.strip()
    if not (stripped.startswith("{") and '"stack"' in stripped):
        return text
    if stripped.endswith("}"):
        try:
            data = json.loads(stripped, strict=False)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("stack"), str):
            return str(data["stack"])
    return _cut_copy(stripped) or text


# A line of a notebook file's JSON (an output's `"text"` list): `"...\\n",`.
_NOTEBOOK_JSON_LINE = re.compile(rf'^\s*"(?P<text>{_STRING})",?\s*$')


def unwrap_notebook_lines(text: str) -> str:
    """Lines copied from an `.ipynb` file's JSON (`"...: FutureWarning: ...\\n",`), each a
    string of an output's text list: their text, unescaped. Only when every line is one and
    one at least ends in an escaped line end (a quoted line of code is no such list)."""
    if '",' not in text and not text.rstrip().endswith('"'):
        return text  # cheap test first: no line of such a list
    strings: list[str] = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        found = _NOTEBOOK_JSON_LINE.match(line)
        if found is None:
            return text
        strings.append(found["text"])
    if not any(s.endswith("\\n") for s in strings):
        return text
    return "".join(_unescape(s) for s in strings)


def _cut_copy(text: str) -> str | None:
    found = _COPY.match(text)
    if found is None:
        return None
    name, message = _unescape(found.group("name")), _unescape(found.group("message"))
    stack = _unescape(_COPY_END.sub("", found.group("stack")))
    last = next((line for line in reversed(stack.split("\n")) if line.strip()), "")
    if name and not _CSI.sub("", last).startswith(name):
        stack += f"\n{name}: {message}"
    return stack


def _unescape(text: str) -> str:
    return _JSON_ESCAPE.sub(_decode, text)


def _decode(found: re.Match[str]) -> str:
    token = found.group(0)
    if token[1] == "u":
        return chr(int(token[2:], 16))
    return {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(token[1], token[1])


def strip_markup(lines: list[str]) -> list[str]:
    """Drop code fences, unwrap markdown links and whole bold lines, cap line lengths; drop the
    `python-BaseException` PyCharm's console appends to an uncaught exception's last line."""
    out: list[str] = []
    for line in lines:
        if len(line) > MAX_LINE:
            line = line[:MAX_LINE]
        if _FENCE.match(line):
            continue
        if "](" in line:
            line = _LINK.sub(lambda link: link[1] or link[2], line)
        if "[" in line[:16]:
            line = _BARE_LINE_LINK.sub(r"\1\2", line)
        if line.lstrip().startswith(("*", "_")) and (
            emphasis := _BOLD_LINE.match(line) or _ITALIC_LINE.match(line)
        ):
            line = emphasis["inner"]
        out.append(line.rstrip().removesuffix(_PYCHARM).rstrip())
    return out


def clean_lines(text: str) -> list[str]:
    """The whole text-level pipeline: the lines a dialect parser reads."""
    return strip_markup(normalize(unwrap_notebook_lines(unwrap_json(text))).split("\n"))
