"""An explanation as HTML for a notebook output: title, entry id, meaning, how to fix, the
before/after example and the link. Everything from the catalog is escaped; `code` spans in the
catalog's prose become <code>."""

from __future__ import annotations

import html
import re

from jaxerr_ls.catalog import Entry

_CODE = re.compile(r"`([^`\n]+)`")
_BOX = (
    "border-left:4px solid #d97706;padding:6px 12px;margin:6px 0;"
    "font-family:system-ui,sans-serif;font-size:13px;line-height:1.45"
)
_PRE = "background:rgba(127,127,127,.12);padding:6px 8px;margin:4px 0;overflow-x:auto"


def _prose(text: str) -> str:
    """Catalog prose (markdown-ish) as escaped HTML with inline code."""
    escaped = html.escape(" ".join(text.split()), quote=False)
    return _CODE.sub(r"<code>\1</code>", escaped)


def render_entry_html(entry: Entry) -> str:
    parts = [
        f'<div class="jaxerr-explanation" style="{_BOX}">',
        f"<div><b>{_prose(entry.title)}</b> "
        f'<span style="opacity:.7">[{html.escape(entry.id)}] · jaxerr-ls</span></div>',
    ]
    if entry.meaning:
        parts.append(f"<p>{_prose(entry.meaning)}</p>")
    if entry.solutions:
        items = "".join(f"<li>{_prose(s)}</li>" for s in entry.solutions)
        parts.append(f"<div><b>How to fix</b><ol>{items}</ol></div>")
    if entry.example is not None:
        for label, code in (("Before", entry.example.before), ("After", entry.example.after)):
            parts.append(
                f"<div><b>{label}</b>"
                f'<pre style="{_PRE}">{html.escape(code.strip(), quote=False)}</pre></div>'
            )
    if entry.docs:
        link = html.escape(entry.docs)
        parts.append(f'<div><a href="{link}" target="_blank" rel="noopener">{link}</a></div>')
    parts.append("</div>")
    return "\n".join(parts)
