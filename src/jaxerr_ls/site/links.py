"""Where an editor's link for an entry points: a published copy of the site when the user set
its base URL (`jaxerr.siteUrl`), else JAX's documentation when the entry has a page there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jaxerr_ls.site.text import page_name

if TYPE_CHECKING:
    from jaxerr_ls.catalog.model import Entry


def site_page(site_url: str, entry_id: str) -> str:
    return f"{site_url.rstrip('/')}/errors/{page_name(entry_id)}.html"


def entry_link(entry: Entry, site_url: str = "") -> str | None:
    if site_url:
        return site_page(site_url, entry.id)
    return entry.docs or None
