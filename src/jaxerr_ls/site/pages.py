"""The site's pages as strings: an error page per entry, a page per API, the index and lists.

Pure: catalog in, HTML out. Pages sit one folder deep (errors/, apis/) and link with relative
paths, so the site works from file:// and from any base URL.
"""

from __future__ import annotations

from collections.abc import Sequence

from jaxerr_ls.catalog.links import page_name
from jaxerr_ls.catalog.model import Catalog, Entry, Site
from jaxerr_ls.catalog.xla import commit_link, site_label
from jaxerr_ls.render.facts import catalog_releases, depth_words, release_ranges, when_raised
from jaxerr_ls.site.related import api_depth
from jaxerr_ls.site.text import esc, inline, pinned_source, prose, template

TITLE = "JAX errors — jaxerr catalog"


def _page(title: str, body: str, depth: int, scripts: Sequence[str] = ()) -> str:
    up = "../" * depth
    tags = "".join(f'<script src="{up}{name}"></script>' for name in (*scripts, "header.js"))
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title>"
        f'<link rel="stylesheet" href="{up}style.css"></head><body>'
        f'<header><a class="home" href="{up}index.html">jaxerr · JAX errors</a>'
        f'<form action="{up}index.html" method="get" role="search">'
        '<textarea name="q" rows="1" spellcheck="false" aria-label="Search" '
        'placeholder="Paste an error message or a traceback"></textarea></form>'
        f"</header><main>{body}</main>{tags}</body></html>\n"
    )


def _section(title: str, html: str, css: str = "") -> str:
    if not html:
        return ""
    anchor = css or title.lower().split(" ")[0]
    return f'<section class="{anchor}"><h2>{esc(title)}</h2>{html}</section>'


def _items(texts: Sequence[str]) -> str:
    return "<ul>" + "".join(f"<li>{inline(t)}</li>" for t in texts) + "</ul>" if texts else ""


def _entry_link(entry: Entry, up: str = "../") -> str:
    mark = ' <span class="badge">curated</span>' if entry.curated else ""
    return (
        f'<a href="{up}errors/{page_name(entry.id)}.html">{inline(entry.title)}</a>{mark} '
        f'<span class="cls">{esc(entry.exception)}</span>'
    )


def _where(site: Site, verb: str = "raised") -> str:
    link = commit_link(site) or pinned_source(site.file, site.line, site.jax)
    return (
        f"<li>{inline(when_raised(site, verb))} — "
        f'<a href="{esc(link)}">{esc(site.file)}:{site.line}</a> '
        f'<span class="dim">({esc(site_label(site))})</span></li>'
    )


def _depth_label(depth: int | None) -> str:
    return "" if depth is None else f' <span class="dim">{esc(depth_words(depth))}</span>'


def _apis(entry: Entry) -> str:
    if not entry.apis:
        return ""
    rows = [
        f'<li><a href="../apis/{page_name(api)}.html"><code>{esc(api)}</code></a>'
        f"{_depth_label(api_depth(entry, api))}</li>"
        for api in entry.apis
    ]
    return "<ul>" + "".join(rows) + "</ul>"


def _releases(entry: Entry, known: Sequence[str]) -> str:
    html = ""
    if entry.versions:
        span = "JAX " + esc(release_ranges(entry.versions, known))
        count = len(entry.versions)
        html += (
            f"<p>{span} ({count} release{'s' if count != 1 else ''})</p>"
            f"<details><summary>every release</summary><p>{esc(', '.join(entry.versions))}"
            "</p></details>"
        )
    if entry.wordings:
        rows = "".join(
            f"<li><pre>{template(w.message)}</pre>"
            f'<span class="dim">JAX {esc(release_ranges(w.versions, known) or "?")}</span></li>'
            for w in entry.wordings
        )
        html += f"<p>Older wordings:</p><ul class=wordings>{rows}</ul>"
    return html


def _example(entry: Entry) -> str:
    example = entry.example
    if example is None:
        return ""
    note = f'<p class="dim">{inline(example.cpu_note)}</p>' if example.cpu_note else ""
    return (
        '<div class="pair"><div><h3>Before (raises)</h3>'
        f"<pre><code>{esc(example.before.strip())}</code></pre></div>"
        "<div><h3>After (runs)</h3>"
        f"<pre><code>{esc(example.after.strip())}</code></pre></div></div>{note}"
    )


def _links(entries: Sequence[Entry]) -> str:
    if not entries:
        return ""
    return "<ul>" + "".join(f"<li>{_entry_link(e)}</li>" for e in entries) + "</ul>"


def entry_page(entry: Entry, catalog: Catalog, related_by_apis: Sequence[Entry]) -> str:
    """The error page of one entry; `related_by_apis` are the errors nearby (same APIs, same
    JAX function or file, same class)."""
    kind = "curated" if entry.curated else "generated from JAX's source"
    head = (
        f"<h1>{inline(entry.title)}</h1>"
        f'<p class="meta"><code>{esc(entry.id)}</code> · {esc(kind)} · '
        f'<a href="../api/errors/{page_name(entry.id)}.json">JSON</a></p>'
    )
    message = f'<pre class="message">{esc(entry.exception)}: {template(entry.message)}</pre>'
    where = "".join(_where(site, entry.verb) for site in entry.raised_at)
    named = [e for rid in entry.related if (e := catalog.get(rid)) is not None]
    fixes = ", ".join(f"<code>{esc(f)}</code>" for f in entry.fixes)
    docs = f'<p><a href="{esc(entry.docs)}">{esc(entry.docs)}</a></p>' if entry.docs else ""
    body = "".join(
        [
            head,
            _section("Message", message),
            _section("Meaning", prose(entry.meaning)),
            _section("Where JAX raises it", f"<ul>{where}</ul>" if where else "", "where"),
            _section("Releases", _releases(entry, catalog_releases(catalog))),
            _section("Solutions", _items(entry.solutions)),
            _section("Example fix", _example(entry), "example"),
            _section("Editor quick fixes", f"<p>{fixes}</p>" if fixes else "", "fixes"),
            _section("Triggers", _items(entry.triggers)),
            _section("Situations", _items(entry.situations)),
            _section("APIs that raise it", _apis(entry), "apis"),
            _section("Related", _links(named), "related"),
            _section("Errors nearby", _links(related_by_apis), "nearby"),
            _section("Documentation", docs, "docs"),
        ]
    )
    return _page(f"{entry.title} — {entry.exception}", body, 1)


def api_page(api: str, entries: Sequence[Entry]) -> str:
    """One API and the errors it can raise, most direct first."""
    rows = "".join(f"<li>{_entry_link(e)}{_depth_label(api_depth(e, api))}</li>" for e in entries)
    count = len(entries)
    body = (
        f"<h1><code>{esc(api)}</code></h1>"
        f"<p>{count} catalogued error{'s' if count != 1 else ''}, most direct first.</p>"
        f'<ol class="errors">{rows}</ol>'
    )
    return _page(f"{api} — errors", body, 1)


def all_errors_page(catalog: Catalog) -> str:
    rows = "".join(
        f"<li>{_entry_link(e)} <code class=dim>{esc(e.id)}</code></li>" for e in catalog.entries
    )
    body = f"<h1>All {len(catalog.entries)} errors</h1><ul class=errors>{rows}</ul>"
    return _page("All errors", body, 1)


def all_apis_page(apis: Sequence[tuple[str, int]]) -> str:
    rows = "".join(
        f'<li><a href="{page_name(api)}.html"><code>{esc(api)}</code></a> '
        f'<span class="dim">{count}</span></li>'
        for api, count in apis
    )
    body = f"<h1>{len(apis)} APIs</h1><ul class=apis>{rows}</ul>"
    return _page("APIs", body, 1)


def index_page(catalog: Catalog) -> str:
    curated = sorted(catalog.curated, key=lambda e: (-e.frequency, e.title))
    rows = "".join(f"<li>{_entry_link(e, '')}</li>" for e in curated)
    release = f"JAX {esc(catalog.jax_version)}, " if catalog.jax_version else ""
    body = (
        "<h1>What does this JAX error mean?</h1>"
        "<p>Paste an error message or a whole traceback: the last exception is looked up with "
        "the same rules as <code>jaxerr-ls explain</code>, in this page, offline. Words work "
        "too.</p>"
        '<textarea id="query" rows="6" spellcheck="false" aria-label="Error message or traceback" '
        'placeholder="TypeError: ... or Traceback (most recent call last): ..."></textarea>'
        '<p id="status" class="dim" aria-live="polite"></p><ol id="results"></ol>'
        f"<p>{len(catalog.entries)} errors ({release}{len(catalog.curated)} curated) · "
        '<a href="errors/index.html">all errors</a> · <a href="apis/index.html">APIs</a></p>'
        f"<h2>Curated errors, most common first</h2><ul class=errors>{rows}</ul>"
    )
    return _page(TITLE, body, 0, ("search-data.js", "match.js", "search.js"))
