"""The catalog's data: entries (curated or generated) and where JAX raises them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

# A placeholder of a message template (`{name}`), or an escaped brace (`{{`, `}}`).
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")

# Libraries used with JAX whose errors the catalog holds (`catalog/libraries/<name>.json.gz`),
# with how their names read in prose.
LIBRARIES = {
    "flax": "Flax",
    "equinox": "Equinox",
    "optax": "Optax",
    "orbax": "Orbax",
    "chex": "Chex",
}
LIBRARY_TAGS = frozenset({"jax", "xla", *LIBRARIES})
# Curated entries in Python's own wording that only a traceback's frames name (no pattern could
# tell them from other errors worded so): a file of the user's shadowing a library
# (`catalog/shadow.py`), a library's import failing on another JAX, or JAX's own import failing
# (`catalog/imports.py`), a JAX function called with a keyword its release lacks (the calling
# line names the function: `upgrades/keywords.py`).
SHADOWED_ENTRY = "module-shadowed-by-local-file"
LIBRARY_SKEW_ENTRY = "library-jax-version-skew"
JAX_IMPORT_ENTRY = "jax-import-failed"
KEYWORD_ENTRY = "keyword-not-in-release"
# Syntax of a newer Python (`type[Any]`, `int | None`) failing at a module's top level.
PYTHON_TOO_OLD_ENTRY = "python-older-than-the-code"
FRAME_NAMED = frozenset(
    {SHADOWED_ENTRY, LIBRARY_SKEW_ENTRY, JAX_IMPORT_ENTRY, KEYWORD_ENTRY, PYTHON_TOO_OLD_ENTRY}
)
# JAX's note that it removed frames, copied without the error it heads.
WRAPPER_NOTE = "jax-traceback-note-without-error"


@dataclass(frozen=True, slots=True)
class Site:
    """One place in JAX's source that raises an error."""

    file: str  # relative to site-packages, e.g. "jax/_src/shard_map.py"
    line: int
    function: str  # qualified, e.g. "ShardMapTrace.process_primitive"
    jax: str  # JAX version the line number belongs to
    # The test guarding the raise as JAX's source states it ("initial.ndim != 0"; an `else`
    # branch negated, "not (...)"); "" when the raise is unconditional or unknown.
    condition: str = ""

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "file": self.file,
            "line": self.line,
            "function": self.function,
            "jax": self.jax,
        }
        if self.condition:
            data["condition"] = self.condition
        return data


@dataclass(frozen=True, slots=True)
class Wording:
    """One wording of an entry's message and the JAX releases that print it (older releases
    often word the same error differently)."""

    message: str  # template with {placeholder}s, like Entry.message
    versions: tuple[str, ...] = ()  # releases using this wording; () = unknown
    # The class those releases raise when it differs from the entry's (ValueError before JAX
    # gave the error its own subclass); "" = the entry's class.
    exception: str = ""
    # Written in a curated entry (proved by a traceback of that release), not found in the index:
    # a curator's word that this text is this error outranks a generic template that also fits.
    curated: bool = False

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"message": self.message, "versions": list(self.versions)}
        if self.exception:
            data["exception"] = self.exception
        return data


@dataclass(frozen=True)
class PythonSite:
    """Where a library's code makes Python (or NumPy) raise an error in Python's own words: a
    call with arguments the callee does not take, a comparison its objects do not support. Such
    a message names no library; raised by the innermost frame of the traceback in this file and
    function, with this class and wording, it is this entry's error."""

    exception: str  # the class Python raises ("TypeError")
    pattern: str  # a regular expression searched in the message (Python's wording)
    file: str  # the library's file as sites name it ("equinox/nn/_sequential.py")
    function: str  # qualified ("Sequential.__call__"); the last part is compared

    def to_json(self) -> dict[str, object]:
        return {
            "exception": self.exception,
            "pattern": self.pattern,
            "file": self.file,
            "function": self.function,
        }


@dataclass(frozen=True)
class Example:
    """A small complete program that raises the error, and the same program fixed."""

    before: str
    after: str
    # What a CPU can prove when the full example needs an accelerator (empty when it runs fully).
    cpu_note: str = ""
    # The JAX release the example is about ("" = the catalog's own); `before` uses a name only
    # older (or newer) releases have.
    jax: str = ""

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"before": self.before, "after": self.after}
        if self.cpu_note:
            data["cpu_note"] = self.cpu_note
        if self.jax:
            data["jax"] = self.jax
        return data


@dataclass(frozen=True, slots=True)
class Entry:
    """One error: its message template and everything we know about it."""

    id: str
    exception: str  # class name as JAX raises it, e.g. "ValueError", "TracerBoolConversionError"
    message: str  # template with {placeholder}s
    title: str
    curated: bool
    meaning: str = ""
    apis: tuple[str, ...] = ()
    raised_at: tuple[Site, ...] = ()
    triggers: tuple[str, ...] = ()
    situations: tuple[str, ...] = ()
    solutions: tuple[str, ...] = ()
    fixes: tuple[str, ...] = ()
    example: Example | None = None
    related: tuple[str, ...] = ()
    docs: str = ""
    # Extra regular expressions (searched in the message) for errors whose text varies more than
    # one template can say; named groups become fields.
    patterns: tuple[str, ...] = ()
    # How often users meet it, 0-100; orders hover lists (most common first).
    frequency: int = 0
    # JAX releases that raise it (sorted oldest first); () = only the index's own release known.
    versions: tuple[str, ...] = ()
    # Other wordings of `message` in other releases (the newest wording is `message`).
    wordings: tuple[Wording, ...] = ()
    # Parallel to `apis`: how many calls separate each API from the raise (0 = its own body
    # raises it); () = unknown. `apis` is ordered most direct first when this is known.
    api_depths: tuple[int, ...] = ()
    # The first release whose API the example needs ("" = every catalogued release runs it).
    min_jax: str = ""
    # Whose error it is: "jax", "xla", or a library used with JAX ("flax", "equinox", "optax",
    # "orbax", "chex"; see LIBRARIES).
    library: str = "jax"
    # A library's releases that raise it (its own version numbers; `versions` stays JAX's).
    library_versions: tuple[str, ...] = ()
    # Why no example proves the entry on a CPU ("" = `example` proves it): a GPU, a TPU, a
    # broken install or a second process is what raises it.
    proof_skip: str = ""
    # Public threads where users met it (URLs): the evidence behind `frequency`.
    evidence: tuple[str, ...] = ()
    # Python-worded raises in a library's code that are this error (see PythonSite).
    python_errors: tuple[PythonSite, ...] = ()
    # `message` is Python's own wording ("{callee}() got an unexpected keyword argument 'key'"):
    # the text alone never identifies the entry: a `python_errors` site does, or a pattern holding
    # the library's own text (a path suffix it names its files with).
    python_worded: bool = False
    # Classes other than `exception` that print the same text in every release, because the raise
    # is not JAX's (NumPy's import-time C-API check prints RuntimeError, AttributeError or
    # ImportError): a pattern of the entry that matches is of the class printed when it is one of
    # these. Older releases' classes belong in `wordings`, a library's statements in
    # `python_errors`.
    other_classes: tuple[str, ...] = ()

    @property
    def warns(self) -> bool:
        """A warning JAX emits (`warnings.warn`, issue 18), not an error it raises."""
        return is_warning(self.exception)

    @property
    def logs(self) -> bool:
        """A message JAX, XLA or a library logs (`catalog.loglines`), not an error it raises."""
        return self.exception == LOG_CLASS

    @property
    def verb(self) -> str:
        """What the code does with the entry's message: "raised", "warned" or "logged"."""
        return "logged" if self.logs else "warned" if self.warns else "raised"

    @property
    def condition(self) -> str:
        """The guard of the first raise site ("" when unconditional or unknown)."""
        return self.raised_at[0].condition if self.raised_at else ""

    def summary_json(self) -> dict[str, object]:
        """The object `catalog list --json` prints for this entry."""
        return {
            "id": self.id,
            "exception": self.exception,
            "message": self.message,
            "title": self.title,
            "curated": self.curated,
            "library": self.library,
            "apis": list(self.apis),
            "fixes": list(self.fixes),
            "raised_at": [site.to_json() for site in self.raised_at],
            "example": self.example.to_json() if self.example else None,
        }

    def full_json(self) -> dict[str, object]:
        """Every field, for `catalog show ID --json`."""
        data = self.summary_json()
        data.update(
            {
                "meaning": self.meaning,
                "triggers": list(self.triggers),
                "situations": list(self.situations),
                "solutions": list(self.solutions),
                "related": list(self.related),
                "docs": self.docs or None,
                "patterns": list(self.patterns),
                "frequency": self.frequency,
                "condition": self.condition or None,
                "versions": list(self.versions),
                "wordings": [w.to_json() for w in self.wordings],
                "api_depths": list(self.api_depths),
                "min_jax": self.min_jax or None,
                "proof_skip": self.proof_skip or None,
                "evidence": list(self.evidence),
                "library_versions": list(self.library_versions),
                "python_errors": [site.to_json() for site in self.python_errors],
                "python_worded": self.python_worded,
                "other_classes": list(self.other_classes),
            }
        )
        return data


@dataclass(frozen=True)
class Catalog:
    """All entries, with indexes by id and by API. Build with `Catalog.of`."""

    entries: tuple[Entry, ...]
    jax_version: str = ""
    # Human-readable problems met while loading ("catalog/x.toml: field 'message': ...").
    problems: tuple[str, ...] = ()
    # Where the index came from, for the server's log.
    source: str = ""
    by_id: Mapping[str, Entry] = field(default_factory=dict, compare=False, repr=False)
    by_api: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(
        cls,
        entries: Iterable[Entry],
        jax_version: str = "",
        problems: Iterable[str] = (),
        source: str = "",
    ) -> Catalog:
        ordered = tuple(entries)
        by_id: dict[str, Entry] = {}
        for entry in ordered:
            by_id.setdefault(entry.id, entry)
        api_lists: dict[str, list[Entry]] = {}
        for entry in ordered:
            for api in entry.apis:
                api_lists.setdefault(api, []).append(entry)
        by_api = {
            api: tuple(sorted(found, key=lambda e, a=api: _api_rank(e, a)))  # type: ignore[misc]
            for api, found in api_lists.items()
        }
        return cls(
            entries=ordered,
            jax_version=jax_version,
            problems=tuple(problems),
            source=source,
            by_id=MappingProxyType(by_id),
            by_api=MappingProxyType(by_api),
        )

    def get(self, entry_id: str) -> Entry | None:
        return self.by_id.get(entry_id)

    def for_api(self, api: str) -> tuple[Entry, ...]:
        """Entries an API can raise, curated and most common first."""
        return self.by_api.get(api, ())

    @property
    def curated(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.curated)


# The class of a logged message (C++ `LOG(...)`, Python's `logger.warning(...)`): no exception.
LOG_CLASS = "LogMessage"


def is_warning(exception: str) -> bool:
    """Python's warning categories and JAX's own (`SparseEfficiencyWarning`) end so; no
    exception class JAX raises does."""
    return exception.endswith("Warning")


def depth_of(entry: Entry, api: str) -> int:
    """Calls between `api` and the entry's raise (0 = its own body); curated and unknown: 0."""
    if not entry.api_depths:
        return 0
    try:
        return entry.api_depths[entry.apis.index(api)]
    except (ValueError, IndexError):
        return 0


def _api_rank(entry: Entry, api: str) -> tuple[bool, int, bool, int, str]:
    """An API's errors: what its own body raises first, then curated and most common. The
    warnings and logged messages extracted from the sources come after all its errors, so that a
    hover's first places go to errors; a curated warning (`x64-dtype-truncated`) ranks as an error
    does."""
    generated_warning = (entry.warns or entry.logs) and not entry.curated
    return (generated_warning, depth_of(entry, api), not entry.curated, -entry.frequency, entry.id)
