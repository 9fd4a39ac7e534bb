"""Writing the site: the one impure step (files), everything else comes from `pages`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from jaxerr_ls.catalog.links import page_name
from jaxerr_ls.catalog.match import Matcher
from jaxerr_ls.catalog.model import Catalog
from jaxerr_ls.site import pages
from jaxerr_ls.site.related import RelatedIndex, errors_of_api
from jaxerr_ls.site.search_data import search_script

ASSETS = ("match.js", "search.js", "header.js", "style.css")


class SiteError(Exception):
    """OUT cannot be written (a file is in the way, no permission, disk full)."""


@dataclass(frozen=True)
class Built:
    files: int
    bytes: int
    entries: int
    apis: int


def _asset(name: str) -> str:
    return (
        resources.files("jaxerr_ls.site")
        .joinpath("assets")
        .joinpath(name)
        .read_text(encoding="utf-8")
    )


# The generated folders and the files of ours in them: a rebuild removes the pages of entries
# the catalog no longer has (an index entry a curated wording now claims, a renamed entry).
PAGE_FOLDERS = (("errors", "*.html"), ("apis", "*.html"), ("api/errors", "*.json"))


def build_site(catalog: Catalog, out: Path, matcher: Matcher | None = None) -> Built:
    """Write the whole site under `out` (created; files already there are overwritten, and
    when `out` holds an earlier build, its pages the catalog no longer has are removed)."""
    files = render_files(catalog, matcher or Matcher(catalog))
    earlier = (out / "search-data.js").is_file()
    size = write_files(out, files)
    if earlier:
        remove_stale(out, files)
    return Built(len(files), size, len(catalog.entries), len(catalog.by_api))


def remove_stale(out: Path, files: dict[str, str]) -> int:
    """Delete generated pages of an earlier build that `files` no longer has; how many."""
    removed = 0
    for folder, pattern in PAGE_FOLDERS:
        for path in (out / folder).glob(pattern):
            if path.relative_to(out).as_posix() not in files:
                try:
                    path.unlink()
                except OSError as exc:
                    raise SiteError(f"cannot remove {path}: {exc.strerror or exc}") from exc
                removed += 1
    return removed


def render_files(catalog: Catalog, matcher: Matcher) -> dict[str, str]:
    """Every file of the site, by its path relative to the site's root (pure)."""
    files: dict[str, str] = {}
    related = RelatedIndex(catalog)
    for entry in catalog.entries:
        name = page_name(entry.id)
        files[f"errors/{name}.html"] = pages.entry_page(entry, catalog, related.related(entry))
        files[f"api/errors/{name}.json"] = (
            json.dumps(entry.full_json(), separators=(",", ":")) + "\n"
        )
    apis = sorted(catalog.by_api)
    for api in apis:
        files[f"apis/{page_name(api)}.html"] = pages.api_page(api, errors_of_api(catalog, api))
    files["errors/index.html"] = pages.all_errors_page(catalog)
    files["apis/index.html"] = pages.all_apis_page([(a, len(catalog.by_api[a])) for a in apis])
    files["index.html"] = pages.index_page(catalog)
    files["search-data.js"] = search_script(matcher, apis)
    for asset in ASSETS:
        files[asset] = _asset(asset)
    return files


def write_files(out: Path, files: dict[str, str]) -> int:
    total = 0
    try:
        for folder in ("", "errors", "apis", "api/errors"):
            (out / folder).mkdir(parents=True, exist_ok=True)
        for relative, text in files.items():
            data = text.encode("utf-8")
            (out / relative).write_bytes(data)
            total += len(data)
    except OSError as exc:
        where = exc.filename or out
        raise SiteError(f"cannot write {where}: {exc.strerror or exc}") from exc
    return total
