"""Hover text for an API: the errors it can raise, its own first, then those a few calls away,
each with when JAX raises it and which releases do (markdown or plain text)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from jaxerr_ls.catalog.links import site_page

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


def _message(entry: Entry, release: str | None = None) -> str:
    from jaxerr_ls.render.facts import message_for

    return one_line(message_for(entry, release).split("\n", 1)[0], LINE)


def _fix(entry: Entry) -> str:
    if entry.solutions:
        return one_line(entry.solutions[0])
    if entry.raised_at:
        from jaxerr_ls.catalog.libraries import raiser

        site = entry.raised_at[0]
        return f"see where {raiser(entry)} raises it: {site.file}:{site.line} ({site.function})"
    return ""


def _when(entry: Entry, api: str, markdown: bool, release: str | None, known: Sequence[str]) -> str:
    r"""`raised when \`cond\` in \`f\` (one call away) · [source](...) · JAX 0.4.26–0.10.2`."""
    from jaxerr_ls.catalog.model import depth_of
    from jaxerr_ls.render.facts import depth_words, release_ranges, source_link, when_raised

    parts = []
    if entry.raised_at:
        site = entry.raised_at[0]
        when = when_raised(site, entry.verb)
        when = when if markdown else when.replace("`", "")
        if api in entry.apis and entry.api_depths:
            when += f" ({depth_words(depth_of(entry, api))})"
        parts.append(when[0].upper() + when[1:])
        link = source_link(site)
        if link:
            parts.append(f"[source]({link})" if markdown else link)
    if entry.versions:
        parts.append("JAX " + release_ranges(entry.versions, known))
    elif entry.library_versions:
        from jaxerr_ls.catalog.libraries import release_label

        parts.append(release_label(entry))
    line = " · ".join(parts)
    if entry.wordings and not entry.versions and entry.library_versions:
        from jaxerr_ls.catalog.libraries import raiser

        line += "  \n" if markdown else "\n  "
        line += f"Worded differently in older {raiser(entry)} releases"
    elif entry.wordings:
        from jaxerr_ls.render.facts import wording_for

        mine = wording_for(entry, release)
        if mine is not None:
            text = one_line(mine.message.split("\n", 1)[0])
            line += f"  \nIn your JAX {release} the message reads: " + (
                f"`{text}`" if markdown else text
            )
        else:
            line += "  \n" if markdown else "\n  "
            line += "Worded differently in JAX " + ", ".join(
                release_ranges(w.versions, known) for w in entry.wordings
            )
    return line


def _full_markdown(
    entry: Entry,
    api: str = "",
    release: str | None = None,
    known: Sequence[str] = (),
    site_url: str = "",
) -> list[str]:
    link = f" · [docs]({entry.docs})" if entry.docs else ""
    if site_url:
        link += f" · [page]({site_page(site_url, entry.id)})"
    out = [f"**{_escape(entry.exception)}**: {_escape(_message(entry, release))}"]
    if entry.curated:
        out[0] = f"**{_escape(entry.title)}** `{entry.id}`{link}  \n" + out[0]
    else:
        out[0] += f" `{entry.id}`{link}"
    if entry.meaning:
        out.append(f"*Meaning:* {one_line(entry.meaning)}")
    when = _when(entry, api, True, release, known)
    if when:
        out.append(when)
    fix = _fix(entry)
    if fix and entry.solutions:
        out.append(f"*Fix:* {fix}")
    return ["\n\n".join(out)]


def _full_plain(
    entry: Entry,
    api: str = "",
    release: str | None = None,
    known: Sequence[str] = (),
    site_url: str = "",
) -> list[str]:
    head = f"{entry.title} [{entry.id}]" if entry.curated else f"[{entry.id}]"
    out = [head, f"  {entry.exception}: {_message(entry, release)}"]
    if entry.meaning:
        out.append(f"  Meaning: {one_line(entry.meaning)}")
    when = _when(entry, api, False, release, known)
    if when:
        out.append("  " + when)
    fix = _fix(entry)
    if fix and entry.solutions:
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
    api: str,
    entries: Sequence[Entry],
    markdown: bool = True,
    release: str | None = None,
    known: Sequence[str] = (),
    site_url: str = "",
    here: int = 0,
) -> str:
    """What `api` can raise: the first FULL entries in full, then one line each, then a count.
    `release` is the user's JAX: its wording of a message is shown when it differs; `site_url`
    adds a link to each entry's page on a published catalog site. The first `here` entries are
    what this call risks on its line (`render/hover_rank.py`): always in full, and said so."""
    warnings = sum(1 for entry in entries if entry.warns)
    logged = sum(1 for entry in entries if entry.logs)
    count = len(entries) - warnings - logged
    what = f"{count} catalogued {'error' if count == 1 else 'errors'} (jaxerr)"
    if warnings:  # JAX's warnings (issue 18): counted apart, listed after the errors
        what += f" + {warnings} {'warning' if warnings == 1 else 'warnings'}"
    if logged:  # and what it logs
        what += f" + {logged} logged {'message' if logged == 1 else 'messages'}"
    blocks = [f"### `{api}` — {what}" if markdown else f"{api}: {what}"]
    if here:
        ids = ", ".join(f"`{e.id}`" if markdown else e.id for e in entries[:here])
        blocks.append(f"{'**' if markdown else ''}At risk here{'**' if markdown else ''}: {ids}")
    render = _full_markdown if markdown else _full_plain
    full = max(FULL, here)
    for entry in entries[:full]:
        blocks += render(entry, api, release, known, site_url)
    rest = entries[full:]
    if rest:
        lines = [f"{'**' if markdown else ''}{len(rest)} more{'**' if markdown else ''}:"]
        lines += [_short(entry, markdown) for entry in rest[:LISTED]]
        if len(rest) > LISTED:
            lines.append(f"- … and {len(rest) - LISTED} others (`jaxerr-ls catalog list`)")
        blocks.append("\n".join(lines))
    separator = "\n\n---\n\n" if markdown else "\n\n"
    return separator.join(blocks)
