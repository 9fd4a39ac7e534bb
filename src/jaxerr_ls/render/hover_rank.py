"""The order of a hover's errors (issue 19): first what this call is at risk of here, then the
API's own errors in their order (the most direct first), each once.

"Here" is, in this order: the entries of the diagnostics on the hovered line (a traceback's, then
predicted findings), then the entries the call's shape points at (`analysis/call_shape.py`: a
decorated method, a static argument given a list, `in_axes` as a dict, ...). A pure function of
the entries it is given, so any source of entries fits (the full catalog or a compact index).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jaxerr_ls.catalog.model import Entry


@dataclass(frozen=True)
class RankedHover:
    entries: tuple[Entry, ...]
    here: int  # the first `here` entries are at risk on this line


def rank_hover(
    api_entries: Sequence[Entry],
    line_entries: Sequence[Entry] = (),
    shape_entries: Sequence[Entry] = (),
) -> RankedHover:
    """`api_entries` in the catalog's order for the API, with the line's and the shape's entries
    first (an entry the API does not list still shows: the line is where it was raised)."""
    seen: set[str] = set()
    first: list[Entry] = []
    for entry in (*line_entries, *shape_entries):
        if entry.id not in seen:
            seen.add(entry.id)
            first.append(entry)
    rest = [entry for entry in api_entries if entry.id not in seen]
    return RankedHover((*first, *rest), len(first))
