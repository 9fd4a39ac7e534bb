"""Several releases' extractions -> one multi-release index, each template stored once.

An entry is one error across releases: the same (exception, template) in any release, joined with
a rewording when, between two consecutive releases, a raise site's function (file, function,
exception) lost exactly one template that vanished from the release and gained exactly one that
is new in it. The newest wording is the entry's `message`, older ones are `wordings`; releases are
a bit mask over the index's `releases` list.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.extract.index import GENERATOR, IndexedError, error_id, ordered_apis, site_json

FORMAT = 2
Key = tuple[str, str]  # (exception, template)
Slot = tuple[str, str, str]  # (file, function, exception)


@dataclass(frozen=True)
class Release:
    version: str
    source: str
    errors: tuple[IndexedError, ...]


@dataclass(frozen=True)
class Change:
    version: str
    previous: str
    added: int  # templates new in this release
    removed: int  # templates of the previous release gone from this one
    reworded: int  # of those, joined to a new wording at the same raise site


class _Union:
    def __init__(self) -> None:
        self.parent: dict[Key, Key] = {}

    def find(self, key: Key) -> Key:
        root = self.parent.setdefault(key, key)
        while root != self.parent[root]:
            root = self.parent[root]
        while key != root:
            key, self.parent[key] = self.parent[key], root
        return root

    def join(self, a: Key, b: Key) -> None:
        self.parent[self.find(a)] = self.find(b)


def _slots(release: Release, keys: set[Key]) -> dict[Slot, list[Key]]:
    found: dict[Slot, list[Key]] = {}
    for error in release.errors:
        key = (error.exception, error.message)
        if key in keys:
            for site in error.raised_at:
                slot = (site.file, site.function, error.exception)
                if key not in found.setdefault(slot, []):
                    found[slot].append(key)
    return found


def changes_and_links(
    releases: Sequence[Release], kept: Callable[[Key], bool] = lambda key: False
) -> tuple[list[Change], _Union]:
    """`kept`: keys whose id a previous index published; two of them are never joined (a
    release read later must not make one of those ids vanish)."""
    union = _Union()
    holds: dict[Key, bool] = {}  # root -> its group holds a kept key
    changes: list[Change] = []
    for error in releases[0].errors if releases else ():
        union.find((error.exception, error.message))
    for previous, current in zip(releases, releases[1:], strict=False):
        before = {(e.exception, e.message) for e in previous.errors}
        after = {(e.exception, e.message) for e in current.errors}
        for key in after:
            union.find(key)
        removed, added = before - after, after - before
        lost, gained = _slots(previous, removed), _slots(current, added)
        reworded: set[Key] = set()
        for slot, old in lost.items():
            new = gained.get(slot, [])
            if len(old) == 1 and len(new) == 1:
                a, b = union.find(old[0]), union.find(new[0])
                held_a, held_b = holds.get(a, kept(a)), holds.get(b, kept(b))
                if a != b and held_a and held_b:
                    continue
                union.join(a, b)
                holds[union.find(a)] = held_a or held_b
                reworded.add(old[0])
        changes.append(
            Change(current.version, previous.version, len(added), len(removed), len(reworded))
        )
    return changes, union


def merge_releases(
    releases: Iterable[Release], prefix: str = "jax", keep: frozenset[str] = frozenset()
) -> tuple[dict[str, object], list[Change]]:
    """The multi-release index document and the per-release changes it was built from;
    `prefix` names the ids (`jax-…`, or a library's name). `keep`: ids a previous index
    published (curated `related`, tests and evidence cite them): each stays an entry's id."""
    ordered = sorted(releases, key=lambda r: version_key(r.version))
    changes, union = changes_and_links(ordered, lambda key: error_id(*key, prefix) in keep)
    bit = {r.version: 1 << i for i, r in enumerate(ordered)}
    masks: dict[Key, int] = {}
    latest: dict[Key, tuple[str, IndexedError]] = {}  # newest release's record of each key
    for release in ordered:
        for error in release.errors:
            key = (error.exception, error.message)
            masks[key] = masks.get(key, 0) | bit[release.version]
            latest[key] = (release.version, error)
    groups: dict[Key, list[Key]] = {}
    for key in masks:
        groups.setdefault(union.find(key), []).append(key)
    newest = ordered[-1].version if ordered else ""
    entries = [_entry(members, masks, latest, newest, prefix, keep) for members in groups.values()]
    entries.sort(key=lambda e: str(e["id"]))
    document: dict[str, object] = {
        "format": FORMAT,
        "jax_version": newest,
        "generator": GENERATOR,
        "releases": [r.version for r in ordered],
        "sources": [r.source for r in ordered],
        "changes": [c.__dict__ for c in changes],
        "errors": entries,
    }
    return document, changes


def joined(
    members: list[Key], masks: dict[Key, int], latest: dict[Key, tuple[str, IndexedError]]
) -> tuple[Key, str, IndexedError, tuple[str, ...], tuple[int, ...], int]:
    """One error's members across releases, sorted in place so the primary leads: its key, its
    newest release and error, the members' APIs at their shallowest depth, and the releases
    (bit mask) raising any of them."""
    # The wording of the newest release is the message; ties go to the more widely raised one.
    members.sort(key=lambda k: (-masks[k].bit_length(), -masks[k].bit_count(), k))
    primary = members[0]
    version, error = latest[primary]
    depths: dict[str, int] = {}
    for key in members:
        other = latest[key][1]
        for api, depth in zip(other.apis, other.api_depths or [0] * len(other.apis), strict=True):
            depths[api] = min(depth, depths.get(api, depth))
    apis, api_depths = ordered_apis(depths)
    mask = 0
    for key in members:
        mask |= masks[key]
    return primary, version, error, apis, api_depths, mask


def _entry(
    members: list[Key],
    masks: dict[Key, int],
    latest: dict[Key, tuple[str, IndexedError]],
    newest: str,
    prefix: str = "jax",
    keep: frozenset[str] = frozenset(),
) -> dict[str, object]:
    primary, version, error, apis, api_depths, mask = joined(members, masks, latest)
    # The newest wording leads; the id stays the one published for a member (at most one).
    ids = [error_id(*key, prefix) for key in members]
    data: dict[str, object] = {
        "id": next((i for i in ids if i in keep), ids[0]),
        "exception": error.exception,
        "message": error.message,
        "title": error.title,
        "apis": list(apis),
        "api_depths": list(api_depths),
        # A site's line belongs to the newest release raising it ("jax" only when older).
        "raised_at": [
            {**site_json(s), **({"jax": version} if version != newest else {})}
            for s in error.raised_at
        ],
        "versions": mask,
    }
    wordings = [{"message": k[1], "versions": masks[k]} for k in members[1:]]
    if wordings:
        data["wordings"] = wordings
    return data


def render_releases(document: dict[str, object]) -> bytes:
    """Gzip'd JSON, one error per line before compression; byte-identical for the same input."""
    head = {k: v for k, v in document.items() if k != "errors"}
    rows = [
        json.dumps(e, ensure_ascii=False, separators=(",", ":"))
        for e in document["errors"]  # type: ignore[attr-defined]
    ]
    text = "{" + json.dumps(head, ensure_ascii=False)[1:-1] + ',\n "errors": [\n'
    text += ",\n".join(rows) + "\n ]\n}\n"
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def release_of(extraction_version: str, source: str, errors: Iterable[IndexedError]) -> Release:
    return Release(extraction_version, source, tuple(errors))
