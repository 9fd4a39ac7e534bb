"""Read the catalog from disk: curated TOML entries and the generated index of JAX's raise sites.

A bad file is reported as `catalog/<file>.toml: field 'x': <what is wrong>` and skipped; loading
never raises for bad data.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import pickle
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from jaxerr_ls.catalog.cache import (
    cached,
    catalog_path,
    default_cache_dir,
    fingerprint,
    forget_others,
    hover_path,
)
from jaxerr_ls.catalog.hover_index import write_index
from jaxerr_ls.catalog.index_entries import ID_RE, _generated_entry, _Releases
from jaxerr_ls.catalog.libraries import library_files, library_name, tag
from jaxerr_ls.catalog.merge import merge
from jaxerr_ls.catalog.mlir import INDEX as MLIR_FILE
from jaxerr_ls.catalog.model import (
    FRAME_NAMED,
    LIBRARIES,
    LIBRARY_TAGS,
    Catalog,
    Entry,
    Example,
    PythonSite,
    Site,
    Wording,
)
from jaxerr_ls.catalog.versions import installed_jax_version, pick_index
from jaxerr_ls.catalog.xla import load_xla

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

XLA_INDEX = Path("xla") / "messages.json.gz"
# Pallas's compilers' MLIR diagnostics, loaded beside it (catalog/mlir.py).
MLIR_INDEX = Path("xla") / MLIR_FILE
KNOWN_FIELDS = frozenset(
    {
        "id",
        "exception",
        "message",
        "title",
        "meaning",
        "apis",
        "raised_at",
        "triggers",
        "situations",
        "solutions",
        "fixes",
        "example",
        "related",
        "docs",
        "patterns",
        "frequency",
        "wordings",
        "min_jax",
        "library",
        "proof_skip",
        "evidence",
        "python_errors",
        "python_worded",
        "other_classes",
    }
)
REQUIRED_CURATED = ("id", "exception", "message", "title", "meaning")


class EntryError(ValueError):
    """A field of an entry is missing or wrong."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"field '{field}': {problem}")
        self.field = field


def catalog_dir() -> Path:
    """The shipped catalog: inside the installed package, else the repository's `catalog/`."""
    packaged = Path(__file__).resolve().parent.parent / "_catalog"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "catalog"


def _string(data: dict[str, Any], key: str, *, required: bool = False) -> str:
    value = data.get(key)
    if value is None:
        if required:
            raise EntryError(key, "is required")
        return ""
    if not isinstance(value, str):
        raise EntryError(key, f"must be a string, not {type(value).__name__}")
    if required and not value.strip():
        raise EntryError(key, "must not be empty")
    return value


def _strings(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise EntryError(key, "must be a list of strings")
    return tuple(value)


def _site(raw: Any, key: str, default_jax: str) -> Site:
    if not isinstance(raw, dict):
        raise EntryError(key, "must be a table with file, line, function")
    line = raw.get("line")
    if not isinstance(line, int) or isinstance(line, bool) or line < 1:
        raise EntryError(key, "'line' must be a positive integer")
    for name in ("file", "function"):
        if not isinstance(raw.get(name), str) or not raw[name]:
            raise EntryError(key, f"'{name}' must be a non-empty string")
    jax = raw.get("jax", default_jax)
    if not isinstance(jax, str) or not jax:
        raise EntryError(key, "'jax' must be a version string")
    return Site(file=raw["file"], line=line, function=raw["function"], jax=jax)


def _sites(data: dict[str, Any], default_jax: str) -> tuple[Site, ...]:
    raw = data.get("raised_at", [])
    items = raw if isinstance(raw, list) else [raw]
    return tuple(_site(item, "raised_at", default_jax) for item in items)


def _example(data: dict[str, Any]) -> Example | None:
    raw = data.get("example")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise EntryError("example", "must be a table with 'before' and 'after'")
    before, after = raw.get("before"), raw.get("after")
    if not isinstance(before, str) or not before.strip():
        raise EntryError("example", "'before' must be a non-empty program")
    if not isinstance(after, str) or not after.strip():
        raise EntryError("example", "'after' must be a non-empty program")
    note = raw.get("cpu_note", "")
    if not isinstance(note, str):
        raise EntryError("example", "'cpu_note' must be a string")
    jax = raw.get("jax", "")
    if not isinstance(jax, str) or (jax and not re.match(r"^\d+(\.\d+)+$", jax)):
        raise EntryError("example", "'jax' must be a release such as \"0.4.38\"")
    return Example(before=before, after=after, cpu_note=note, jax=jax)


def _check_patterns(patterns: Iterable[str]) -> None:
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise EntryError("patterns", f"bad regular expression {pattern!r}: {exc}") from None


def _check_template(message: str) -> None:
    from jaxerr_ls.catalog.templates import TemplateError, compile_template

    try:
        compile_template(message)
    except TemplateError as exc:
        raise EntryError("message", str(exc)) from None


_VERSION = re.compile(r"^\d+\.\d+\.\d+$")


def _version(value: object, key: str) -> str:
    if not isinstance(value, str) or not _VERSION.match(value):
        raise EntryError(key, f'must be a JAX release such as "0.4.38", not {value!r}')
    return value


def _curated_wordings(data: dict[str, Any], library: str = "jax") -> tuple[Wording, ...]:
    """`wordings = [{message = "...", versions = ["0.4.38", ...], exception = "ValueError"}]`:
    older releases' text (and class, when it differed). A library's entry names the library's
    releases there: checked, not kept (a wording's `versions` are JAX's; the library's index,
    which the wording claims, brings the library's releases)."""
    raw = data.get("wordings", [])
    if not isinstance(raw, list):
        raise EntryError("wordings", "must be a list of {message, versions} tables")
    found: list[Wording] = []
    for item in raw:
        if not isinstance(item, dict) or set(item) - {"message", "versions", "exception"}:
            raise EntryError(
                "wordings", "each must be a table with 'message', 'versions' and an 'exception'"
            )
        message, versions = item.get("message"), item.get("versions", [])
        exception = item.get("exception", "")
        if not isinstance(exception, str) or (
            exception and not all(part.isidentifier() for part in exception.split("."))
        ):
            raise EntryError("wordings", "'exception' must be a class name such as ValueError")
        if not isinstance(message, str) or not message.strip():
            raise EntryError("wordings", "'message' must be a non-empty template")
        try:
            _check_template(message)
        except EntryError as exc:
            raise EntryError("wordings", str(exc).split(": ", 1)[-1]) from None
        if not isinstance(versions, list) or not versions:
            raise EntryError("wordings", "'versions' must list the releases that print it")
        used = tuple(_version(v, "wordings") for v in versions)
        found.append(Wording(message, () if library in LIBRARIES else used, exception, True))
    return tuple(found)


# JAX's own packages a Python-worded raise may sit in besides the libraries (jax-triton, from
# jax-ml too, imports Triton's internals).
_PYTHON_ERROR_PACKAGES = ("jax", "jax_triton")


def _python_errors(data: dict[str, Any]) -> tuple[PythonSite, ...]:
    """`python_errors = [{exception = "TypeError", pattern = "...", file = "...", function =
    "..."}]`: Python-worded raises in JAX's or a library's code that are this error."""
    raw = data.get("python_errors", [])
    if not isinstance(raw, list):
        raise EntryError("python_errors", "must be a list of tables")
    found: list[PythonSite] = []
    keys = {"exception", "pattern", "file", "function"}
    for item in raw:
        if not isinstance(item, dict) or set(item) != keys:
            raise EntryError("python_errors", f"each must be a table with {sorted(keys)}")
        if not all(isinstance(item[key], str) and item[key].strip() for key in keys):
            raise EntryError("python_errors", "each field must be a non-empty string")
        if item["file"].split("/", 1)[0] not in (*LIBRARIES, *_PYTHON_ERROR_PACKAGES):
            raise EntryError(
                "python_errors", "'file' must be JAX's or a library's, e.g. flax/core/lift.py"
            )
        _check_patterns([item["pattern"]])
        found.append(PythonSite(item["exception"], item["pattern"], item["file"], item["function"]))
    return tuple(found)


def entry_from_dict(data: dict[str, Any], *, curated: bool, default_jax: str = "") -> Entry:
    """Build an entry from parsed TOML/JSON, validating every field."""
    unknown = sorted(set(data) - KNOWN_FIELDS)
    if unknown:
        raise EntryError(unknown[0], "is not a catalog field")
    if curated:
        for key in REQUIRED_CURATED:
            _string(data, key, required=True)
    entry_id = _string(data, "id", required=True)
    if not ID_RE.match(entry_id):
        raise EntryError("id", "must be lowercase letters, digits and dashes")
    message = _string(data, "message", required=True)
    if curated:  # generated templates come from our extractor; the matcher skips any bad one
        _check_template(message)
    patterns = _strings(data, "patterns")
    _check_patterns(patterns)
    library = _string(data, "library") or "jax"
    if library not in LIBRARY_TAGS:
        raise EntryError("library", f"must be one of {', '.join(sorted(LIBRARY_TAGS))}")
    evidence = _strings(data, "evidence")
    if any(not url.startswith("https://") for url in evidence):
        raise EntryError("evidence", "each must be the https:// address of a public thread")
    python_errors = _python_errors(data)
    python_worded = data.get("python_worded", False)
    if not isinstance(python_worded, bool):
        raise EntryError("python_worded", "must be true or false")
    if python_worded and not (python_errors or patterns or data.get("id") in FRAME_NAMED):
        raise EntryError(
            "python_worded", "needs python_errors sites or patterns (the library's text) to match"
        )
    other_classes = _strings(data, "other_classes")
    if any(not all(part.isidentifier() for part in c.split(".")) for c in other_classes):
        raise EntryError("other_classes", "each must be a class name such as RuntimeError")
    if other_classes and not (patterns or data.get("id") in FRAME_NAMED):
        raise EntryError("other_classes", "apply to the entry's patterns: give patterns")
    frequency = data.get("frequency", 0)
    if not isinstance(frequency, int) or isinstance(frequency, bool) or not 0 <= frequency <= 100:
        raise EntryError("frequency", "must be an integer from 0 to 100")
    return Entry(
        id=entry_id,
        exception=_string(data, "exception", required=True),
        message=message,
        title=_string(data, "title") or message.split("\n", 1)[0][:80],
        curated=curated,
        meaning=_string(data, "meaning"),
        apis=_strings(data, "apis"),
        raised_at=_sites(data, default_jax),
        triggers=_strings(data, "triggers"),
        situations=_strings(data, "situations"),
        solutions=_strings(data, "solutions"),
        fixes=_strings(data, "fixes"),
        example=_example(data),
        related=_strings(data, "related"),
        docs=_string(data, "docs"),
        patterns=patterns,
        frequency=frequency,
        wordings=_curated_wordings(data, library),
        min_jax=_version(data["min_jax"], "min_jax") if "min_jax" in data else "",
        library=library,
        proof_skip=_string(data, "proof_skip"),
        evidence=evidence,
        python_errors=python_errors,
        python_worded=python_worded,
        other_classes=other_classes,
    )


@dataclass(frozen=True)
class Loaded:
    entries: tuple[Entry, ...]
    problems: tuple[str, ...]


def load_curated(directory: Path, label: str = "catalog/curated") -> Loaded:
    """Every `*.toml` under `directory`; bad files are reported and skipped."""
    entries: list[Entry] = []
    problems: list[str] = []
    seen: set[str] = set()
    for path in sorted(directory.glob("*.toml")):
        where = f"{label}/{path.name}"
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            entry = entry_from_dict(data, curated=True)
        except EntryError as exc:
            problems.append(f"{where}: {exc}")
            continue
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            problems.append(f"{where}: not readable TOML: {exc}")
            continue
        if entry.id in seen:
            problems.append(f"{where}: field 'id': duplicate id '{entry.id}'")
            continue
        if path.stem != entry.id:
            problems.append(f"{where}: field 'id': '{entry.id}' does not match the file name")
            continue
        seen.add(entry.id)
        entries.append(entry)
    return Loaded(tuple(entries), tuple(problems))


def load_index(path: Path) -> tuple[Loaded, str]:
    """The generated index of raise sites (one release's `jax-<v>.json`, or the multi-release
    `releases.json.gz`); returns the entries and the (newest) JAX version."""
    label = f"catalog/{path.parent.name}/{path.name}"
    try:
        raw_bytes = path.read_bytes()
        if path.suffix == ".gz":
            raw_bytes = gzip.decompress(raw_bytes)
        data = json.loads(raw_bytes.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, EOFError) as exc:
        return Loaded((), (f"{label}: not readable JSON: {exc}",)), ""
    # A library's index names its own newest release `version`.
    version = (data.get("jax_version") or data.get("version", "")) if isinstance(data, dict) else ""
    raw_errors = data.get("errors", []) if isinstance(data, dict) else []
    releases = data.get("releases", []) if isinstance(data, dict) else []
    decode = _Releases(releases if isinstance(releases, list) else [], str(version))
    entries: list[Entry] = []
    problems: list[str] = []
    for number, raw in enumerate(raw_errors if isinstance(raw_errors, list) else []):
        fast = _generated_entry(raw, str(version), decode)
        if fast is not None:
            entries.append(fast)
            continue
        try:
            if not isinstance(raw, dict):
                raise EntryError("errors", "each error must be an object")
            entries.append(entry_from_dict(raw, curated=False, default_jax=version))
        except EntryError as exc:
            problems.append(f"{label}: error #{number}: {exc}")
    return Loaded(tuple(entries), tuple(problems)), str(version)


@dataclass(frozen=True)
class Located:
    """Where the catalog comes from and where its cached copies live (`cache.py`)."""

    base: Path
    index_path: Path | None
    directory: Path | None  # None: no cache (JAXERR_LS_NO_CACHE)
    key: str

    @property
    def cached(self) -> Path | None:
        return None if self.directory is None else catalog_path(self.directory, self.key)

    @property
    def hover(self) -> Path | None:
        return None if self.directory is None else hover_path(self.directory, self.key)


def locate(
    root: Path | None = None,
    *,
    jax_version: Callable[[], str | None] = installed_jax_version,
    cache_dir: Path | None | Literal["default"] = "default",
) -> Located:
    """The catalog files for the installed JAX (or the newest), and its cache key: the package
    version and the size and time of every file read, the loader's own code among them."""
    base = root if root is not None else catalog_dir()
    index_path = pick_index(base / "index", jax_version())
    directory = default_cache_dir() if cache_dir == "default" else cache_dir
    files = [*(base / "curated").glob("*.toml"), *([index_path] if index_path else [])]
    files += [path for path in [base / XLA_INDEX, base / MLIR_INDEX] if path.exists()]
    files += library_files(base)
    # The loader's own code too: a changed merge rule must not be served from an older pickle.
    files += [Path(__file__), Path(__file__).with_name("model.py")]
    files += [
        Path(__file__).with_name(name)
        for name in ("xla.py", "loglines.py", "mlir.py", "libraries.py")
    ]
    files += [Path(__file__).with_name(name) for name in ("merge.py", "index_entries.py")]
    files += [Path(__file__).with_name("hover_index.py")]
    key = fingerprint(files, f"{base.resolve()}\0{index_path}") if directory else ""
    return Located(base, index_path, directory, key)


def load_catalog(
    root: Path | None = None,
    *,
    jax_version: Callable[[], str | None] = installed_jax_version,
    cache_dir: Path | None | Literal["default"] = "default",
    with_hover_index: bool = False,
) -> Catalog:
    """The whole catalog: curated entries plus the index for the installed JAX (or the newest).

    Served from the user's cache when no catalog file changed since it was stored (see
    `cache.py`); `cache_dir=None` always reads the files. `with_hover_index`: also store the
    hover index (`hover_index.py`) beside the cached copy when it is not there yet."""
    found = locate(root, jax_version=jax_version, cache_dir=cache_dir)
    if found.directory is None:
        return _load_files(found.base, found.index_path)
    catalog = cached(found.directory, found.key, lambda: _load_files(found.base, found.index_path))
    hover = found.hover
    if with_hover_index and hover is not None and not hover.exists():
        with contextlib.suppress(OSError, pickle.PicklingError):
            write_index(hover, catalog)
            forget_others(found.directory, "hover-*.idx", hover)
    return catalog


def _load_files(base: Path, index_path: Path | None) -> Catalog:
    curated = load_curated(base / "curated")
    problems = list(curated.problems)
    generated: tuple[Entry, ...] = ()
    version, source = "", ""
    if index_path is not None:
        loaded, version = load_index(index_path)
        generated, source = loaded.entries, str(index_path)
        problems.extend(loaded.problems)
    if (base / XLA_INDEX).exists():  # errors raised below JAX's Python
        below, xla_problems = load_xla(base / XLA_INDEX)
        generated += tuple(below)
        problems.extend(xla_problems)
    libraries: list[Entry] = []
    for path in library_files(base):
        name = library_name(path)
        if name is None:
            problems.append(f"catalog/libraries/{path.name}: not a known library's index")
            continue
        loaded, _ = load_index(path)
        libraries.extend(tag(loaded.entries, name))
        problems.extend(loaded.problems)
    # JAX's own entries first: where a library's template and JAX's match equally, JAX's wins.
    generated = (*generated, *libraries)
    return Catalog.of(merge(curated.entries, generated), version, problems, source)
