"""Hover text for an API: the errors it can raise, most common first (markdown or plain text)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from jaxerr_ls.site.links import site_page

if TYPE_CHECKING:
    from jaxerr_ls.catalog import Entry

FULL = 3  # entries shown with meaning and fix; the rest get one line each
LISTED = 10  # one-line entries after the full ones; beyond that only a count
LINE = 200  # characters of a one-line meaning or fix
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(])")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def one_line(text: str, limit: int = LINE) -> str:
    """The first sentence, on one line, cut at `limit` characters."""
    flat = " ".join(text.split())
    first = _SENTENCE.split(flat, 1)[0]
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


def _escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _message(entry: Entry) -> str:
    return one_line(entry.message.split("\n", 1)[0], LINE)


def _fix(entry: Entry) -> str:
    if entry.solutions:
        return one_line(entry.solutions[0])
    if entry.raised_at:
        site = entry.raised_at[0]
        return f"see where JAX raises it: {site.file}:{site.line} ({site.function})"
    return ""


def _full_markdown(entry: Entry, site_url: str = "") -> list[str]:
    link = f" · [docs]({entry.docs})" if entry.docs else ""
    if site_url:
        link += f" · [page]({site_page(site_url, entry.id)})"
    out = [f"**{_escape(entry.exception)}**: {_escape(_message(entry))}"]
    if entry.curated:
        out[0] = f"**{_escape(entry.title)}** `{entry.id}`{link}  \n" + out[0]
    else:
        out[0] += f" `{entry.id}`{link}"
    if entry.meaning:
        out.append(f"*Meaning:* {one_line(entry.meaning)}")
    fix = _fix(entry)
    if fix:
        out.append(f"*Fix:* {fix if entry.solutions else _escape(fix)}")
    return ["\n\n".join(out)]


def _full_plain(entry: Entry, site_url: str = "") -> list[str]:
    head = f"{entry.title} [{entry.id}]" if entry.curated else f"[{entry.id}]"
    out = [head, f"  {entry.exception}: {_message(entry)}"]
    if entry.meaning:
        out.append(f"  Meaning: {one_line(entry.meaning)}")
    fix = _fix(entry)
    if fix:
        out.append(f"  Fix: {fix}")
    if entry.docs:
        out.append(f"  Docs: {entry.docs}")
    if site_url:
        out.append(f"  Page: {site_page(site_url, entry.id)}")
    return ["\n".join(out)]


def _short(entry: Entry, markdown: bool) -> str:
    text = entry.title if entry.curated else _message(entry)
    if markdown:
        return f"- `{entry.id}` {_escape(entry.exception)}: {_escape(text)}"
    return f"- {entry.exception}: {text} [{entry.id}]"


def render_api_hover(
    api: str, entries: Sequence[Entry], markdown: bool = True, site_url: str = ""
) -> str:
    """What `api` can raise: the first FULL entries in full, then one line each, then a count."""
    count = len(entries)
    noun = "error" if count == 1 else "errors"
    if markdown:
        blocks = [f"### `{api}` — {count} catalogued {noun} (jaxerr)"]
    else:
        blocks = [f"{api}: {count} catalogued {noun} (jaxerr)"]
    render = _full_markdown if markdown else _full_plain
    for entry in entries[:FULL]:
        blocks += render(entry, site_url)
    rest = entries[FULL:]
    if rest:
        lines = [f"{'**' if markdown else ''}{len(rest)} more{'**' if markdown else ''}:"]
        lines += [_short(entry, markdown) for entry in rest[:LISTED]]
        if len(rest) > LISTED:
            lines.append(f"- … and {len(rest) - LISTED} others (`jaxerr-ls catalog list`)")
        blocks.append("\n".join(lines))
    separator = "\n\n---\n\n" if markdown else "\n\n"
    return separator.join(blocks)
