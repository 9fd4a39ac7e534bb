"""The catalog of JAX errors: entries, loading and message matching (no LSP here)."""

from jaxerr_ls.catalog.load import catalog_dir, load_catalog
from jaxerr_ls.catalog.match import Match, Matcher, match_message
from jaxerr_ls.catalog.model import Catalog, Entry, Example, Site

__all__ = [
    "Catalog",
    "Entry",
    "Example",
    "Match",
    "Matcher",
    "Site",
    "catalog_dir",
    "load_catalog",
    "match_message",
]
