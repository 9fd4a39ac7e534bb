"""HTML from catalog text: everything escaped first, then only our own markup added."""

from __future__ import annotations

import re
from html import escape
from urllib.parse import quote

_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*([^*\n]+)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*([^*\s](?:[^*\n]*[^*\s])?)\*(?![\w*])")
_URL = re.compile(r"(?<![\"'=])\bhttps?://[^\s<>&\"')]+[^\s<>&\"').,;:]")
_PLACEHOLDER = re.compile(r"\{(\w*)\}")
JAX_REPO = "https://github.com/jax-ml/jax/blob"


def esc(text: str) -> str:
    """Text for an element's content or a quoted attribute value."""
    return escape(text, quote=True)


def inline(text: str) -> str:
    """Catalog prose: `code`, **bold**, *emphasis* and bare links; everything else escaped."""
    out: list[str] = []
    position = 0
    for code in _CODE.finditer(text):
        out.append(_words(text[position : code.start()]))
        out.append(f"<code>{esc(code.group(1))}</code>")
        position = code.end()
    out.append(_words(text[position:]))
    return "".join(out)


def _words(text: str) -> str:
    html = _BOLD.sub(r"<strong>\1</strong>", esc(text))
    html = _EMPHASIS.sub(r"<em>\1</em>", html)
    return _URL.sub(lambda m: f'<a href="{m.group(0)}">{m.group(0)}</a>', html)


def prose(text: str) -> str:
    """Paragraphs (blank-line separated) of `inline` text."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    return "".join(f"<p>{inline(' '.join(p.split()))}</p>" for p in paragraphs)


def template(message: str) -> str:
    """A message template with its {placeholders} marked."""
    return _PLACEHOLDER.sub(lambda m: f"<var>{{{m.group(1)}}}</var>", esc(message))


def pinned_source(file: str, line: int, version: str) -> str:
    """JAX's source at the release tag, so the line number stays right."""
    return f"{JAX_REPO}/jax-v{quote(version)}/{quote(file)}#L{line}"
