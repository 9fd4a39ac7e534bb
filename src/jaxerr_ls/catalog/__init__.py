"""The catalog of JAX errors: entries, loading and message matching (no LSP here).

The names below load on first use: the language server imports a few small modules of this
package when it starts (the words of an identification, the entries' links), not the loader and
the matcher, which wait for the first traceback or hover."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jaxerr_ls.lazy import names_on_first_use

if TYPE_CHECKING:
    from jaxerr_ls.catalog.load import catalog_dir, load_catalog
    from jaxerr_ls.catalog.match import Matcher, match_message
    from jaxerr_ls.catalog.model import Catalog, Entry, Example, Site
    from jaxerr_ls.catalog.templates import Match

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
_HOMES = {
    "catalog_dir": "load",
    "load_catalog": "load",
    "Match": "match",
    "Matcher": "match",
    "match_message": "match",
    "Catalog": "model",
    "Entry": "model",
    "Example": "model",
    "Site": "model",
}

__getattr__ = names_on_first_use(globals(), _HOMES)
