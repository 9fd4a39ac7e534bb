"""What only JAX releases before the main index print (0.1-0.4.25), loaded on first need.

`catalog/index/older.json.gz` (built by `jaxerr_ls.extract.older`) holds, per current entry,
the older releases that raised it and their wordings ("joins"), and the errors only older
releases raise (entries of their own). The server never reads it at start: a message that
matches nothing current asks for it (`Matcher`), explanations and `catalog show` extend an
entry's releases with it, and hovers use it once something else has loaded it.
"""

from __future__ import annotations

import gzip
import json
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from jaxerr_ls.catalog.model import Catalog, Entry, Site, Wording
from jaxerr_ls.catalog.versions import version_key

OLDER_INDEX = "older.json.gz"
_NAMED = re.compile(r"\{[^{}]*\}")


@lru_cache(maxsize=65536)
def shape(template: str) -> str:
    """A template with its placeholder names and spacing left out (curated entries name them
    differently from the index)."""
    return " ".join(_NAMED.sub("{}", template).split())


@dataclass(frozen=True)
class Join:
    versions: tuple[str, ...]  # older releases raising the entry, in any wording
    wordings: tuple[Wording, ...]  # older releases' wordings (with their class when it differs)
    sites: tuple[Site, ...] = ()  # where older releases raised it (their newest's lines)


@dataclass(frozen=True)
class Older:
    releases: tuple[str, ...]
    joins: Mapping[str, Join]  # by the shape of the current entry's message
    entries: tuple[Entry, ...]  # errors only older releases raise

    def join_for(self, entry: Entry) -> Join | None:
        for text in (entry.message, *(w.message for w in entry.wordings)):
            found = self.joins.get(shape(text))
            if found is not None:
                return found
        return None

    def extend(self, entry: Entry) -> Entry:
        """The entry with the older releases that raised it and their wordings."""
        join = self.join_for(entry)
        if join is None:
            return entry
        # () = releases unknown (a curated entry the index lent none): left unknown.
        versions = set(entry.versions) | set(join.versions) if entry.versions else set()
        wordings = {w.message: w for w in entry.wordings}
        own = shape(entry.message)
        for old in join.wordings:
            if shape(old.message) == own and not old.exception:
                continue
            known = wordings.get(old.message)
            if known is None:
                wordings[old.message] = old
            else:
                used = tuple(sorted(set(known.versions) | set(old.versions), key=version_key))
                wordings[old.message] = replace(known, versions=used)
        return replace(
            entry,
            versions=tuple(sorted(versions, key=version_key)),
            wordings=tuple(wordings.values()),
        )


_masks: dict[tuple[int, int], tuple[str, ...]] = {}


def _releases(names: list[str], mask: object) -> tuple[str, ...]:
    """A bit mask over `names` -> the releases; one shared tuple per mask (few distinct ones)."""
    if not isinstance(mask, int):
        return ()
    key = (id(names), mask)
    found = _masks.get(key)
    if found is None:
        found = _masks[key] = tuple(r for i, r in enumerate(names) if mask >> i & 1)
    return found


def _wordings(raw: object, names: list[str]) -> tuple[Wording, ...]:
    found: list[Wording] = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict) and isinstance(item.get("message"), str):
            exception = item.get("exception", "")
            found.append(
                Wording(
                    item["message"],
                    _releases(names, item.get("versions")),
                    exception if isinstance(exception, str) else "",
                )
            )
    return tuple(found)


def _sites(raw: object) -> tuple[Site, ...]:
    return tuple(
        Site(
            str(site.get("file", "")),
            site["line"],
            str(site.get("function", "")),
            str(site.get("jax", "")),
            str(site.get("condition", "")),
        )
        for site in (raw if isinstance(raw, list) else [])
        if isinstance(site, dict) and isinstance(site.get("line"), int)
    )


def _entry(raw: dict[str, object], names: list[str]) -> Entry | None:
    entry_id, exception, message = raw.get("id"), raw.get("exception"), raw.get("message")
    if not (isinstance(entry_id, str) and isinstance(exception, str) and isinstance(message, str)):
        return None
    apis = raw.get("apis", [])
    depths = raw.get("api_depths", [])
    sites = _sites(raw.get("raised_at", []))
    title = raw.get("title")
    return Entry(
        id=entry_id,
        exception=exception,
        message=message,
        title=title if isinstance(title, str) and title else message.split("\n", 1)[0][:80],
        curated=False,
        apis=tuple(a for a in apis if isinstance(a, str)) if isinstance(apis, list) else (),
        raised_at=tuple(sites),
        versions=_releases(names, raw.get("versions")),
        wordings=_wordings(raw.get("wordings"), names),
        api_depths=tuple(d for d in depths if isinstance(d, int))
        if isinstance(depths, list) and len(depths) == len(apis)  # type: ignore[arg-type]
        else (),
    )


def read_older(path: Path) -> Older | None:
    """The file's contents, or None when it is missing or unreadable (older data is a bonus)."""
    try:
        data = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    except (OSError, EOFError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("releases"), list):
        return None
    names = [str(r) for r in data["releases"]]
    joins: dict[str, Join] = {}
    raw_joins = data.get("joins", {})
    for record in raw_joins.values() if isinstance(raw_joins, dict) else ():
        if isinstance(record, dict) and isinstance(record.get("message"), str):
            joins[shape(record["message"])] = Join(
                _releases(names, record.get("versions")),
                _wordings(record.get("wordings"), names),
                _sites(record.get("raised_at")),
            )
    raw_errors = data.get("errors", [])
    entries = [
        found
        for raw in (raw_errors if isinstance(raw_errors, list) else [])
        if isinstance(raw, dict) and (found := _entry(raw, names)) is not None
    ]
    return Older(tuple(names), MappingProxyType(joins), tuple(entries))


_lock = threading.Lock()
_loaded: dict[Path, Older | None] = {}


def older_path(catalog: Catalog) -> Path | None:
    """Beside the shipped index the catalog was loaded from; None for catalogs built in code."""
    if not catalog.source:
        return None
    path = Path(catalog.source).with_name(OLDER_INDEX)
    return path if path.is_file() else None


def load_older(catalog: Catalog) -> Older | None:
    """The older releases' data for a catalog loaded from files (read once per process)."""
    path = older_path(catalog)
    if path is None:
        return None
    with _lock:
        if path not in _loaded:
            found = read_older(path)
            _loaded[path] = _fold_by_class(found, catalog) if found is not None else None
        return _loaded[path]


def _head(template: str) -> str:
    """The literal opening of a template: up to its first placeholder or line end, without the
    punctuation that leads into what follows ("...is expected." / "...is expected: {v}")."""
    return re.split(r"[{\n]", template, maxsplit=1)[0].rstrip(" .:;,")


def _first_sentence(template: str) -> str:
    """A template's opening sentence when it is literal and long enough to name an error alone
    (20+ characters up to the first ". "), else ""."""
    head = re.split(r"[{\n]", template, maxsplit=1)[0]
    sentence, stop, _ = head.partition(". ")
    return sentence if stop and len(sentence) >= 20 else ""


def _fold_by_class(older: Older, catalog: Catalog) -> Older:
    """An older error of a JAX-specific class (`TracerArrayConversionError`) whose wording no
    current entry shares joins the one curated entry of that class, when there is exactly one:
    the class is JAX's own name for that error in every release. Builtin classes never do."""
    import builtins

    curated: dict[str, list[Entry]] = {}
    for entry in catalog.entries:
        if entry.curated:
            curated.setdefault(entry.exception.rsplit(".", 1)[-1], []).append(entry)
    joins = dict(older.joins)
    rest: list[Entry] = []
    for entry in older.entries:
        cls = entry.exception.rsplit(".", 1)[-1]
        owners = [] if hasattr(builtins, cls) else curated.get(cls, [])
        if len(owners) > 1:  # several sub-cases: the one whose message opens the same way
            same = [o for o in owners if _head(o.message) == _head(entry.message)]
            # ... or, when none does, whose first sentence is the older message's ("Encountered
            # an unexpected tracer. Perhaps this tracer escaped ..." of 0.1-0.2, a later
            # release's "Encountered an unexpected tracer. A function transformed by JAX ...").
            owners = same or [
                o for o in owners if _first_sentence(o.message) == _first_sentence(entry.message)
            ]
        if len(owners) != 1 or len(_head(entry.message)) < 20:
            rest.append(entry)
            continue
        key = shape(owners[0].message)
        known = joins.get(key, Join((), ()))
        versions = tuple(sorted(set(known.versions) | set(entry.versions), key=version_key))
        added = (Wording(entry.message, entry.versions), *entry.wordings)
        joins[key] = Join(versions, (*known.wordings, *added), (*known.sites, *entry.raised_at))
    return _fold_by_opening(older, catalog, joins, rest)


def _fold_by_opening(
    older: Older, catalog: Catalog, joins: dict[str, Join], rest: list[Entry]
) -> Older:
    """An older error whose long literal opening (40+ characters) is that of exactly one curated
    entry's message or wording, of any class: JAX 0.1's `Exception: The numpy.ndarray conversion
    method __array__() was called on the JAX Tracer object ...` is the tracer conversion error
    that later got its own class."""
    owners: dict[str, set[str]] = {}
    for entry in catalog.entries:
        if not entry.curated:
            continue
        join = joins.get(shape(entry.message), Join((), ()))
        for text in (entry.message, *(w.message for w in (*entry.wordings, *join.wordings))):
            owners.setdefault(_head(text), set()).add(entry.id)
    patterns = [
        (entry.id, re.compile(pattern, re.DOTALL | re.MULTILINE))
        for entry in catalog.entries
        if entry.curated
        for pattern in entry.patterns
    ]
    kept: list[Entry] = []
    for entry in rest:
        found = owners.get(_head(entry.message), set())
        owner = catalog.get(next(iter(found))) if len(found) == 1 else None
        if owner is None or len(_head(entry.message)) < 40:
            owner = _pattern_owner(entry, patterns, catalog)
        if owner is None:
            kept.append(entry)
            continue
        key = shape(owner.message)
        known = joins.get(key, Join((), ()))
        versions = tuple(sorted(set(known.versions) | set(entry.versions), key=version_key))
        cls = entry.exception if entry.exception != owner.exception else ""
        added = (
            Wording(entry.message, entry.versions, cls),
            *(replace(w, exception=w.exception or cls) for w in entry.wordings),
        )
        joins[key] = Join(versions, (*known.wordings, *added), (*known.sites, *entry.raised_at))
    return Older(older.releases, MappingProxyType(joins), tuple(kept))


def _pattern_owner(
    entry: Entry, patterns: list[tuple[str, re.Pattern[str]]], catalog: Catalog
) -> Entry | None:
    """The one curated entry whose patterns match the older error's text as printed (each
    placeholder read as a value, `0`): JAX 0.1-0.2's `ValueError: jaxlib is version {v}, but
    this version of jax requires version {m}.` is what `jaxlib-version-too-old` describes."""
    text = _ANY_PLACEHOLDER.sub("0", entry.message)
    # A short literal opening names nothing, unless a long literal text follows its first
    # value (`{name} requires arguments to have the same dtypes, got {types}.` of 0.1-0.2).
    literal = _ANY_PLACEHOLDER.sub("", entry.message)
    if len(_head(entry.message)) < 12 and len(" ".join(literal.split())) < 40:
        return None
    found = {entry_id for entry_id, pattern in patterns if pattern.search(text)}
    return catalog.get(next(iter(found))) if len(found) == 1 else None


# A placeholder with its expression (`{'.'.join(map(str, version))}`), braces balanced one deep.
_ANY_PLACEHOLDER = re.compile(r"\{(?:[^{}]|\{[^{}]*\})*\}")


def loaded_older(catalog: Catalog) -> Older | None:
    """The older data only when something already loaded it (hovers must stay cheap)."""
    path = older_path(catalog)
    return _loaded.get(path) if path is not None else None


def _rewords(join: Join, entry: Entry) -> bool:
    texts = {shape(entry.message), *(shape(w.message) for w in entry.wordings)}
    return any(w.exception or shape(w.message) not in texts for w in join.wordings)


def any_loaded_older() -> Older | None:
    """Whatever older data this process has loaded (the server has one catalog)."""
    return next((found for found in _loaded.values() if found is not None), None)


def extend_entry(catalog: Catalog, entry: Entry, *, load: bool = True) -> Entry:
    """`entry` with the releases before the main index that raised it (when known)."""
    older = load_older(catalog) if load else loaded_older(catalog)
    return older.extend(entry) if older is not None else entry


def older_catalog(catalog: Catalog) -> Catalog | None:
    """Current entries that older releases worded differently (extended with those wordings),
    then the errors only older releases raise: what the matcher falls back on."""
    older = load_older(catalog)
    if older is None:
        return None
    # Only entries some older release worded differently: the current texts match already.
    extended = []
    for entry in catalog.entries:
        join = older.join_for(entry)
        if join is not None and _rewords(join, entry):
            extended.append(older.extend(entry))
    # No release of its own: every wording counts, whichever release printed it.
    return Catalog.of([*extended, *older.entries], "", source="")
