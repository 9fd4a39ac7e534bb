"""Curated and generated entries as one list: a generated entry that a curated one covers folds
into it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from jaxerr_ls.catalog.model import LIBRARIES, Entry, Wording


def merge(curated: Iterable[Entry], generated: Iterable[Entry]) -> list[Entry]:
    """Curated entries first; a generated entry with the same message (in any release's wording)
    or the same raise site as a curated one is folded into it, lending it the APIs that reach it
    (curated APIs count as direct), the releases that raise it and its other wordings."""
    curated = list(curated)
    by_key: dict[tuple[str, str], int] = {}
    # A logged message has no class of its own: the curated entry of its text takes it, whatever
    # class the curator gave the text (JAX logs "... Falling back to cpu.", users paste it bare).
    by_message: dict[str, int] = {}
    # Raise site -> the curated entries (positions) that list it; the last one takes its index
    # entries.
    owners: dict[tuple[str, int], list[int]] = {}
    for position, entry in enumerate(curated):
        by_key[(entry.exception, entry.message)] = position
        by_message.setdefault(entry.message, position)
        for wording in entry.wordings:  # a curator's older wording claims the index's entry
            by_key.setdefault((wording.exception or entry.exception, wording.message), position)
        for site in entry.raised_at:
            owners.setdefault((site.file, site.line), []).append(position)
    folded: dict[int, list[Entry]] = {}
    rest: list[Entry] = []
    for entry in generated:
        owner = next(
            (
                by_key[(entry.exception, text)]
                for text in (entry.message, *(w.message for w in entry.wordings))
                if (entry.exception, text) in by_key
            ),
            None,
        )
        if owner is None and entry.logs:
            owner = by_message.get(entry.message)
        if owner is None:
            shared = [
                owners[(s.file, s.line)] for s in entry.raised_at if (s.file, s.line) in owners
            ]
            owner = shared[0][-1] if shared else None
            # Folded by raise site only: a site that serves several curated sub-cases keeps its
            # older wordings to itself; a site only one curated entry claims lends them.
            if shared and len(set(shared[0])) > 1:
                entry = replace(entry, wordings=())
        if (
            owner is not None
            and entry.library in LIBRARIES
            and curated[owner].library != (entry.library)
        ):
            # A library's error worded like JAX's (Optax's "axis … is out of bounds") stays its
            # own: a JAX entry lists JAX's APIs, and the library's hover names its own error.
            owner = None
        if owner is None:
            rest.append(entry)
        else:
            folded.setdefault(owner, []).append(entry)
    merged = [
        _fold(entry, folded[position]) if position in folded else entry
        for position, entry in enumerate(curated)
    ]
    return merged + rest


_NAMED = re.compile(r"\{[^{}]*\}")


def _shape(template: str) -> str:
    return " ".join(_NAMED.sub("{}", template).split())


def _fold(entry: Entry, found: list[Entry]) -> Entry:
    from jaxerr_ls.catalog.versions import version_key

    depths = dict.fromkeys(entry.apis, 0)
    for other in found:
        for api, depth in zip(other.apis, other.api_depths or (0,) * len(other.apis), strict=True):
            depths.setdefault(api, depth)
    apis = tuple(depths)
    versions = tuple(
        sorted(
            {v for other in found for v in other.versions} | set(entry.versions), key=version_key
        )
    )
    # Every wording the generated entries know, the curated message's own releases excepted;
    # a curated wording keeps its class and its curator's word, and gains the index's releases.
    wordings: dict[str, Wording] = {w.message: w for w in entry.wordings}
    shape = _shape(entry.message)
    for other in found:
        for text, used in (
            (other.message, other.versions),
            *((w.message, w.versions) for w in other.wordings),
        ):
            if _shape(text) == shape:  # the curated message with other placeholder names
                continue
            known = wordings.get(text) or Wording(text)
            union = sorted(set(known.versions) | set(used), key=version_key)
            wordings[text] = replace(known, versions=tuple(union))
    # Where older releases raised it (another function or file) identifies their bare errors.
    sites = list(entry.raised_at)
    places = {(site.file, site.function) for site in sites}
    for other in found:
        for site in other.raised_at:
            if (site.file, site.function) not in places:
                places.add((site.file, site.function))
                sites.append(site)
    # A library's generated entries lend their releases (and their library, should the curator
    # not have said it).
    # A curated entry that says nothing takes the library only when all it folds is that
    # library's (a JAX error that a library also raises with the same words stays JAX's).
    libraries = {other.library for other in found}
    library = entry.library
    if library == "jax" and len(libraries) == 1 and not entry.versions:
        only = libraries.pop()
        library = only if only in LIBRARIES else library
    library_versions = tuple(
        sorted(
            {v for other in found for v in other.library_versions} | set(entry.library_versions),
            key=version_key,
        )
    )
    return replace(
        entry,
        apis=apis,
        api_depths=tuple(depths.values()),
        versions=versions,
        wordings=tuple(wordings.values()),
        raised_at=tuple(sites),
        library=library,
        library_versions=library_versions,
    )
