"""A pickled copy of the loaded catalog in the user's cache directory.

The server loads the catalog on every start, and the first hover waits for it: parsing ~100 TOML
files and a 2.5 MB index costs ~0.2 s, unpickling the result ~0.06 s. The cache is keyed by the
package version and the size and modification time of every catalog file, so an edited entry or
a new index is never served stale. Any problem with the cache (unreadable, corrupt, unwritable)
falls back to loading from the files; it never fails the load. Like jedi's own cache, it trusts
the user's cache directory.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable
from io import BufferedReader
from pathlib import Path
from types import MappingProxyType
from typing import Any

from jaxerr_ls.catalog.model import Catalog
from jaxerr_ls.version import __version__

FORMAT = 7  # 2: Entry.min_jax; 3: Wording.exception and .curated; 4: equal strings shared;
# 5: Entry.python_errors and .python_worded; 6: Entry.other_classes; 7: Entry, Site, Wording
# with __slots__


def default_cache_dir() -> Path | None:
    """`$XDG_CACHE_HOME/jaxerr-ls` (else `~/.cache/jaxerr-ls`); None when `JAXERR_LS_NO_CACHE`
    is set."""
    if os.environ.get("JAXERR_LS_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "jaxerr-ls"


def fingerprint(files: Iterable[Path], extra: str) -> str:
    digest = hashlib.sha1(f"{FORMAT}\0{__version__}\0{extra}".encode())
    for path in sorted(files):
        try:
            stat = path.stat()
        except OSError:
            continue
        digest.update(f"\0{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def catalog_path(directory: Path, key: str) -> Path:
    return directory / f"catalog-{key}.pickle"


def hover_path(directory: Path, key: str) -> Path:
    """The hover index (`hover_index.py`) of the catalog cached under `key`."""
    return directory / f"hover-{key}.idx"


def forget_others(directory: Path, pattern: str, kept: Path) -> None:
    """Remove the files matching `pattern` but `kept`: one catalog at a time."""
    for old in directory.glob(pattern):
        if old != kept:
            with contextlib.suppress(OSError):
                old.unlink()


def cached(directory: Path | None, key: str, build: Callable[[], Catalog]) -> Catalog:
    """The catalog stored under `key`, or `build()` stored there for next time."""
    if directory is None:
        return build()
    path = catalog_path(directory, key)
    with contextlib.suppress(Exception):  # a bad cache is only a slower start
        return _read(path)
    catalog = build()
    with contextlib.suppress(OSError, pickle.PicklingError):
        _write(directory, path, catalog)
    return catalog


class _Yielding:
    """A file whose reads are Python calls: the unpickler reads one frame (64 KB) at a time, and
    each call lets another thread take the interpreter. The server loads the catalog in a thread
    while it answers hovers: read whole, the unpickling held them up ~0.1 s (seconds on a loaded
    machine); read so, ~20 ms at most."""

    def __init__(self, stream: BufferedReader) -> None:
        self._stream = stream

    def read(self, size: int = -1) -> bytes:
        return self._stream.read(size)

    def readline(self) -> bytes:
        return self._stream.readline()

    def readinto(self, buffer: bytearray | memoryview) -> int:
        return self._stream.readinto(buffer)


def _read(path: Path) -> Catalog:
    with path.open("rb") as stream:
        state = pickle.load(_Yielding(stream))
    entries, by_id, by_api, version, problems, source = state
    return Catalog(
        entries=entries,
        jax_version=version,
        problems=problems,
        source=source,
        by_id=MappingProxyType(by_id),
        by_api=MappingProxyType(by_api),
    )


def _write(directory: Path, path: Path, catalog: Catalog) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    # Equal strings and tuples of strings made one object: pickle then stores (and a load makes)
    # each once. The loaded catalog holds ~58,000 distinct strings in ~96,000 objects otherwise.
    seen: dict[object, object] = {}
    shared = {id(e): _shared(e, seen) for e in catalog.entries}
    state = (
        tuple(shared[id(e)] for e in catalog.entries),
        {key: shared.get(id(e), e) for key, e in catalog.by_id.items()},
        {api: tuple(shared.get(id(e), e) for e in found) for api, found in catalog.by_api.items()},
        catalog.jax_version,
        catalog.problems,
        catalog.source,
    )
    handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(handle, "wb") as out:
        pickle.dump(state, out, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(temporary, path)
    forget_others(directory, "catalog-*.pickle", path)


def _shared(value: Any, seen: dict[object, object]) -> Any:
    """`value` with its equal strings, tuples of strings and frozen records made one object."""
    if isinstance(value, str):
        return seen.setdefault(value, value)
    if isinstance(value, tuple):
        items = tuple(_shared(item, seen) for item in value)
        if all(isinstance(item, str) for item in items):
            return seen.setdefault(("tuple", items), items)
        return items
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changed = {
            f.name: _shared(getattr(value, f.name), seen)
            for f in dataclasses.fields(value)
            if f.init
        }
        return dataclasses.replace(value, **changed)
    return value
