"""Where an editor's link for an entry points: a published copy of the site when the user set
its base URL (`jaxerr.siteUrl`), else JAX's documentation when the entry has a page there."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jaxerr_ls.catalog.model import Entry


def page_name(name: str) -> str:
    """A file name for an id or API name (catalog ids and APIs are already safe; keep it so)."""
    return re.sub(r"[^A-Za-z0-9._-]", lambda m: f"%{ord(m.group(0)):02X}", name)


def site_page(site_url: str, entry_id: str) -> str:
    return f"{site_url.rstrip('/')}/errors/{page_name(entry_id)}.html"


def entry_link(entry: Entry, site_url: str = "") -> str | None:
    if site_url:
        return site_page(site_url, entry.id)
    return entry.docs or None
