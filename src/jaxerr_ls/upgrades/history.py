"""The shipped API history (`catalog/api-history.json`), queried: does release R have name N,
when was it added or removed, what does JAX say replaces it. Pure; loaded once."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Literal

from jaxerr_ls.catalog.versions import version_key as _version_key

NEVER = "-"


@lru_cache(maxsize=256)
def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    return _version_key(version)


HISTORY_FILE = "api-history.json"
Status = Literal["ok", "deprecated", "removed", "not-yet", "unknown"]
# The short names JAX's own messages use.
_ALIASES = (
    ("jnp.", "jax.numpy."),
    ("lax.", "jax.lax."),
    ("jsp.", "jax.scipy."),
    ("pltpu.", "jax.experimental.pallas.tpu."),
    ("plgpu.", "jax.experimental.pallas.mosaic_gpu."),
    ("pl.", "jax.experimental.pallas."),
)


@dataclass(frozen=True)
class Facts:
    """What the history knows about one dotted name (a module or a module's attribute)."""

    name: str
    is_module: bool
    spans: tuple[tuple[str, str], ...]  # (first, last) releases that have it; last "" = newest
    deprecated_in: str = ""  # first release whose import warns ("" = none catalogued)
    message: str = ""  # JAX's own deprecation/removal message, verbatim
    replacement: str = ""  # the name JAX's message says to use
    earlier: str = ""  # an older-than-catalogued release whose table already deprecated it

    @property
    def added_in(self) -> str:
        return self.spans[0][0] if self.spans else ""

    @property
    def last_release(self) -> str:
        return self.spans[-1][1] if self.spans else ""


@dataclass(frozen=True)
class Verdict:
    facts: Facts
    status: Status
    release: str  # the catalogued release the answer is for
    removed_in: str = ""  # first release without it (status "removed"); "" = before the catalog
    added_in: str = ""  # first release with it (status "not-yet")
    oldest: str = ""  # the oldest catalogued release


def _parse_spans(
    text: str, module_spans: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    if text == "":
        return module_spans
    if text == NEVER:
        return ()
    spans = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        spans.append((first, last))
    return tuple(spans)


def spans_have(spans: tuple[tuple[str, str], ...], release: str) -> bool:
    """Whether `release` is in one of the (first, last) spans ("" last: to the newest)."""
    key = version_key(release)
    return any(
        version_key(first) <= key and (not last or key <= version_key(last))
        for first, last in spans
    )


def release_at_or_before(releases: tuple[str, ...], version: str) -> str:
    """The newest of `releases` (sorted, oldest first) not newer than `version`; the oldest
    for an older version."""
    key = version_key(version)
    older = [r for r in releases if version_key(r) <= key]
    return older[-1] if older else releases[0]


def normalise(name: str) -> str:
    for short, full in _ALIASES:
        if name.startswith(short):
            return full + name[len(short) :]
    return name


# A deprecation message shorter than this ("Deprecated.") could be any name's.
MIN_MESSAGE = 30


class ApiHistory:
    def __init__(self, data: dict[str, object]) -> None:
        releases = data.get("releases", [])
        modules = data.get("modules", {})
        deprecations = data.get("deprecations", {})
        self.releases: tuple[str, ...] = (
            tuple(str(r) for r in releases) if isinstance(releases, list) else ()
        )
        self._modules: dict[str, dict[str, object]] = modules if isinstance(modules, dict) else {}
        self._deprecations: dict[str, dict[str, str]] = (
            deprecations if isinstance(deprecations, dict) else {}
        )
        # Editors ask about the same names on every pause: answers are kept per (name, release).
        self._verdicts: dict[tuple[str, str | None, bool], Verdict | None] = {}
        self._by_message: dict[str, list[str]] | None = None  # built on first use

    @property
    def newest(self) -> str:
        return self.releases[-1] if self.releases else ""

    @property
    def oldest(self) -> str:
        return self.releases[0] if self.releases else ""

    def module_names(self) -> list[str]:
        return list(self._modules)

    def attribute_names(self, module: str) -> list[str]:
        """Every attribute of a module some catalogued release had (none for an open module)."""
        names = self._modules.get(module, {}).get("names", {})
        return list(names) if isinstance(names, dict) else []

    def is_open(self, module: str) -> bool:
        return bool(self._modules.get(module, {}).get("open"))

    def _module_spans(self, module: str) -> tuple[tuple[str, str], ...]:
        record = self._modules.get(module)
        if record is None:
            return ()
        return _parse_spans(str(record.get("r", NEVER)), ())

    def facts(self, dotted: str, module: bool = False) -> Facts | None:
        """Facts for `jax.numpy.row_stack` (or `jnp.row_stack`), or a module; None if unknown.

        A name that is both a submodule and an attribute of its parent (`jax.config` was a
        module and is the config object) works whenever either exists, unless it is imported as
        a module (`module`: `import jax.config` needs the module, the attribute does not do)."""
        name = normalise(dotted)
        record_of_name = self._deprecations.get(name, {})
        fields = _deprecation_fields(record_of_name)
        module_spans = self._module_spans(name) if name in self._modules else None
        parent, _, attribute = name.rpartition(".")
        record = self._modules.get(parent)
        attribute_spans = None
        if record is not None and not record.get("open") and not module:
            names = record.get("names", {})
            if isinstance(names, dict) and attribute in names:
                attribute_spans = _parse_spans(str(names[attribute]), self._module_spans(parent))
        if module_spans is None and attribute_spans is None:
            return None
        if attribute_spans is None:
            return Facts(name, True, module_spans or (), **fields)
        if module_spans is None:
            return Facts(name, False, attribute_spans, **fields)
        if record_of_name.get("import"):
            # The module's import warns; the attribute of the same name does not.
            fields = _deprecation_fields({})
        both = (*module_spans, *attribute_spans)
        union = [any(self._has((span,), r) for span in both) for r in self.releases]
        return Facts(name, not attribute_spans, self._spans_of(union), **fields)

    def names_warned_by(self, message: str) -> list[str]:
        """The names whose recorded deprecation message the text begins with (`Accessing
        jax.config via the jax.config submodule is deprecated.` -> jax.config.config): JAX's
        own words for a name they need not spell as the name."""
        text = " ".join(message.split())
        said = self.wordings()
        return sorted({name for words in said if text.startswith(words) for name in said[words]})

    def wordings(self) -> dict[str, list[str]]:
        """Each recorded deprecation message (its spaces collapsed), with the names it is for."""
        if self._by_message is None:
            self._by_message = {}
            for name, record in self._deprecations.items():
                said = " ".join(str(record.get("message", "")).split())
                if len(said) >= MIN_MESSAGE:
                    self._by_message.setdefault(said, []).append(name)
        return self._by_message

    def unimported_submodule(self, dotted: str, version: str | None) -> str | None:
        """The release (`version`'s, else the newest) in which `dotted` is a module that its
        parent does not import (`module 'jax.experimental' has no attribute 'sparse'` until
        `import jax.experimental.sparse`), else None."""
        name = normalise(dotted)
        parent, _, attribute = name.rpartition(".")
        record = self._modules.get(parent)
        if name not in self._modules or record is None or record.get("open"):
            return None
        release = self.release_for(version)
        if not self._has(self._module_spans(name), release):
            return None
        names = record.get("names", {})
        if isinstance(names, dict) and attribute in names:
            bound = _parse_spans(str(names[attribute]), self._module_spans(parent))
            if self._has(bound, release):
                return None  # the parent binds it: the attribute is there
        return release

    def _spans_of(self, present: list[bool]) -> tuple[tuple[str, str], ...]:
        spans: list[tuple[str, str]] = []
        start: int | None = None
        for index, flag in enumerate([*present, False]):
            if flag and start is None:
                start = index
            elif not flag and start is not None:
                last = "" if index == len(self.releases) else self.releases[index - 1]
                spans.append((self.releases[start], last))
                start = None
        return tuple(spans)

    def release_for(self, version: str | None) -> str:
        """The catalogued release that stands for `version`: itself, the newest one not newer,
        or the newest catalogued (unknown or newer versions); the oldest for older ones."""
        if not version or not self.releases:
            return self.newest
        return release_at_or_before(self.releases, version)

    def _has(self, spans: tuple[tuple[str, str], ...], release: str) -> bool:
        return spans_have(spans, release)

    def _after(self, release: str) -> str:
        index = self.releases.index(release) if release in self.releases else -1
        return self.releases[index + 1] if 0 <= index < len(self.releases) - 1 else ""

    def verdict(self, dotted: str, version: str | None, module: bool = False) -> Verdict | None:
        """Whether `version` (a release, or None for the newest) has the name (as a module, when
        `module`), and if not why."""
        key = (dotted, version, module)
        if key in self._verdicts:
            return self._verdicts[key]
        facts = self.facts(dotted, module)
        found = None
        if facts is not None:
            found = replace(self._verdict(facts, self.release_for(version)), oldest=self.oldest)
        if len(self._verdicts) > 50_000:
            self._verdicts.clear()
        self._verdicts[key] = found
        return found

    def _verdict(self, facts: Facts, release: str) -> Verdict:
        key = version_key(release)
        if self._has(facts.spans, release):
            warns = facts.deprecated_in and key >= version_key(facts.deprecated_in)
            ends = self._after(facts.last_release) if facts.last_release else ""
            return Verdict(facts, "deprecated" if warns else "ok", release, removed_in=ends)
        later = [first for first, _ in facts.spans if version_key(first) > key]
        if later and not any(version_key(f) <= key for f, _ in facts.spans):
            return Verdict(facts, "not-yet", release, added_in=later[0])
        ended = [last for _, last in facts.spans if last and version_key(last) < key]
        if ended:
            return Verdict(facts, "removed", release, removed_in=self._after(ended[-1]))
        if later:  # a gap: gone for a while, back in a later release
            return Verdict(facts, "not-yet", release, added_in=later[0])
        if facts.message or facts.earlier:  # gone before the first catalogued release
            return Verdict(facts, "removed", release)
        return Verdict(facts, "unknown", release)


def _deprecation_fields(record: dict[str, str]) -> dict[str, str]:
    return {
        "deprecated_in": str(record.get("deprecated", "")),
        "message": str(record.get("message", "")),
        "replacement": str(record.get("replacement", "")),
        "earlier": str(record.get("earlier", "")),
    }


def history_path() -> Path:
    from jaxerr_ls.catalog.load import catalog_dir

    return catalog_dir() / HISTORY_FILE


@lru_cache(maxsize=4)
def load_history(path: Path | None = None) -> ApiHistory:
    """The shipped history; an empty one (which knows no name) when the file is missing or bad."""
    try:
        data = json.loads((path or history_path()).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        data = {}
    return ApiHistory(data if isinstance(data, dict) else {})
