"""Which entries go together on the site: errors of the same APIs, raised in the same JAX function
or file, of the same class; and an API's errors ordered by how directly it raises them."""

from __future__ import annotations

from jaxerr_ls.catalog.model import Catalog, Entry, depth_of

# An API (or a JAX file) that reaches more errors than this says little about how two are related.
MAX_SHARED = 150
MAX_FILE = 300
FILE_WEIGHT = 0.5  # a shared file counts half as much as a shared function
RELATED = 8
SAME_CLASS = 1.5  # weight of a shared exception class


def api_depth(entry: Entry, api: str) -> int | None:
    """Calls between `api` and the raise (0 = its own body), when the index recorded it."""
    if len(entry.api_depths) != len(entry.apis) or api not in entry.apis:
        return None
    return entry.api_depths[entry.apis.index(api)]


def errors_of_api(catalog: Catalog, api: str) -> list[Entry]:
    """An API's errors as the hover lists them: most direct first (curated count as direct),
    then the catalog's order (curated, most common)."""
    return sorted(catalog.for_api(api), key=lambda entry: depth_of(entry, api))


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
        self._by_place: dict[tuple[str, str], list[Entry]] = {}
        for entry in catalog.entries:
            for place in self._places(entry):
                self._by_place.setdefault(place, []).append(entry)

    @staticmethod
    def _places(entry: Entry) -> set[tuple[str, str]]:
        """The JAX functions (file, name) and files (file, "") that raise the entry."""
        places: set[tuple[str, str]] = set()
        for site in entry.raised_at:
            places.add((site.file, site.function))
            places.add((site.file, ""))
        return places

    def related(self, entry: Entry, limit: int = RELATED) -> list[Entry]:
        scores: dict[str, float] = {}

        def add(others: list[Entry] | tuple[Entry, ...], weight: float) -> None:
            for other in others:
                if other.id != entry.id:
                    scores[other.id] = scores.get(other.id, 0.0) + weight

        for api in entry.apis:
            weight = self._weight.get(api)
            if weight is not None:
                add(self.catalog.by_api[api], weight)
        for place in self._places(entry):
            group = self._by_place[place]
            if place[1]:
                add(group, 1.0 / len(group))
            elif len(group) <= MAX_FILE:
                add(group, FILE_WEIGHT / len(group))
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
