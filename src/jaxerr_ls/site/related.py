"""Which entries go together on the site: errors of the same APIs (and class), and an API's
errors ordered by how directly it raises them."""

from __future__ import annotations

from jaxerr_ls.catalog.model import Catalog, Entry

# An API that reaches more errors than this says little about how two of them are related.
MAX_SHARED = 150
RELATED = 8
SAME_CLASS = 1.5  # weight of a shared exception class


def api_depth(entry: Entry, api: str) -> int | None:
    """Calls between `api` and the raise (0 = its own body), when the index recorded it."""
    if len(entry.api_depths) != len(entry.apis) or api not in entry.apis:
        return None
    return entry.api_depths[entry.apis.index(api)]


def errors_of_api(catalog: Catalog, api: str) -> list[Entry]:
    """An API's errors, most direct first; among equals the catalog's order (curated, common)."""
    found = catalog.for_api(api)
    unknown = 1 << 30
    return sorted(found, key=lambda e: d if (d := api_depth(e, api)) is not None else unknown)


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


class RelatedIndex:
    """Related entries for every entry, by the APIs they share (rarer APIs weigh more)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._weight = {
            api: 1.0 / len(entries)
            for api, entries in catalog.by_api.items()
            if len(entries) <= MAX_SHARED
        }

    def related(self, entry: Entry, limit: int = RELATED) -> list[Entry]:
        scores: dict[str, float] = {}
        for api in entry.apis:
            weight = self._weight.get(api)
            if weight is None:
                continue
            for other in self.catalog.by_api[api]:
                if other.id != entry.id:
                    scores[other.id] = scores.get(other.id, 0.0) + weight
        cls = _short(entry.exception)
        ranked: list[tuple[float, bool, str]] = []
        for other_id, score in scores.items():
            other = self.catalog.by_id[other_id]
            if other_id in entry.related:
                continue
            boost = SAME_CLASS if _short(other.exception) == cls else 1.0
            ranked.append((-score * boost, not other.curated, other_id))
        ranked.sort()
        return [self.catalog.by_id[other_id] for _, _, other_id in ranked[:limit]]
