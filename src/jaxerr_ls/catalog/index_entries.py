"""The index's common, well-formed errors built directly, without the full validation of
`load.entry_from_dict` (the index loads on every server start)."""

from __future__ import annotations

import re
from sys import intern

from jaxerr_ls.catalog.model import Entry, Site, Wording

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class _Releases:
    """Bit masks over the index's `releases` -> version tuples, one shared tuple per mask."""

    def __init__(self, releases: list[object], newest: str) -> None:
        self.releases = [str(r) for r in releases]
        self.newest = newest
        self._memo: dict[int, tuple[str, ...]] = {}

    def __call__(self, mask: object) -> tuple[str, ...] | None:
        if not isinstance(mask, int) or isinstance(mask, bool) or mask < 0:
            return None
        found = self._memo.get(mask)
        if found is None:
            found = tuple(r for i, r in enumerate(self.releases) if mask >> i & 1)
            self._memo[mask] = found
        return found


_GENERATED_FIELDS = frozenset(
    {"id", "exception", "message", "title", "apis", "raised_at", "api_depths", "versions"}
    | {"wordings"}
)


def _generated_entry(raw: object, version: str, decode: _Releases | None = None) -> Entry | None:
    """The common, well-formed index error built directly (the index loads on every server
    start); anything unusual returns None and goes through the full validation instead."""
    if not isinstance(raw, dict) or not raw.keys() <= _GENERATED_FIELDS:
        return None
    decode = decode or _Releases([], version)
    entry_id, exception, message = raw.get("id"), raw.get("exception"), raw.get("message")
    title, apis, sites = raw.get("title", ""), raw.get("apis", []), raw.get("raised_at", [])
    depths = raw.get("api_depths", [])
    if not (
        isinstance(entry_id, str)
        and ID_RE.match(entry_id)
        and isinstance(exception, str)
        and exception
        and isinstance(message, str)
        and message.strip()
        and isinstance(title, str)
        and isinstance(apis, list)
        and all(isinstance(api, str) for api in apis)
        and isinstance(sites, list)
        and isinstance(depths, list)
        and (not depths or len(depths) == len(apis))
        and all(isinstance(d, int) for d in depths)
    ):
        return None
    versions = decode(raw["versions"]) if "versions" in raw else ()
    if versions is None:
        return None
    wordings: list[Wording] = []
    for wording in raw.get("wordings", []):
        if not isinstance(wording, dict) or not isinstance(wording.get("message"), str):
            return None
        used = decode(wording.get("versions", 0))
        if used is None:
            return None
        wordings.append(Wording(wording["message"], used))
    built: list[Site] = []
    for site in sites:
        if not (
            isinstance(site, dict)
            and isinstance(site.get("file"), str)
            and isinstance(site.get("line"), int)
            and site["line"] > 0
            and isinstance(site.get("function"), str)
            and isinstance(site.get("condition", ""), str)
            and isinstance(site.get("jax", version), str)
        ):
            return None
        built.append(
            Site(
                intern(site["file"]),
                site["line"],
                site["function"],
                site.get("jax", version),
                site.get("condition", ""),
            )
        )
    return Entry(
        id=entry_id,
        exception=exception,
        message=message,
        title=title or message.split("\n", 1)[0][:80],
        curated=False,
        # Interned: the same API names recur across entries, and the pickled cache then stores
        # each once (smaller, faster to load at every server start).
        apis=tuple(intern(api) for api in apis),
        raised_at=tuple(built),
        versions=versions,
        wordings=tuple(wordings),
        api_depths=tuple(depths),
    )
