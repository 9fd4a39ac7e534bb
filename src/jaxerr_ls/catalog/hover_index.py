"""A compact index for hover: each API's entries pickled apart, so that the first hover reads and
unpickles the entries of the API under the cursor, not the whole catalog.

Built from whatever `Catalog` the loader loaded (curated entries, every release's index, the
libraries' catalogs: every source it merges), never from a list of sources; stored beside the
catalog's cache under the same key (`load.py`), so it changes when any catalog file does.

Lookup only: an API's entries come back in the catalog's order for that API (`Catalog.for_api`);
ranking them for a hover is the renderer's business.

File layout: MAGIC, the header's length (8 bytes, big-endian), the header (a pickle of
{"apis": {api: (entry number, ...)}, "ends": the end offset of each entry's pickle, as array("Q")
bytes, counted from the end of the header, "releases": (...)}), then one pickle per entry.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import tempfile
import threading
from array import array
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import BinaryIO, Protocol

from jaxerr_ls.catalog.model import Catalog, Entry
from jaxerr_ls.catalog.versions import version_key

MAGIC = b"JXHOVER2"
LENGTH = struct.Struct("!Q")


class HoverSource(Protocol):
    """What a hover reads: the catalogued API names, the releases the catalog knows, and an
    API's entries (in the catalog's order)."""

    @property
    def apis(self) -> Collection[str]: ...

    @property
    def releases(self) -> tuple[str, ...]: ...

    def for_api(self, api: str) -> tuple[Entry, ...]: ...


def releases_of(entries: Iterable[Entry]) -> tuple[str, ...]:
    """Every release some entry names, oldest first."""
    return tuple(sorted({v for entry in entries for v in entry.versions}, key=version_key))


class FromCatalog:
    """The loaded catalog as a hover source (once it is loaded, hovers read it directly)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.apis: Mapping[str, tuple[Entry, ...]] = catalog.by_api
        self.releases = releases_of(catalog.entries)

    def for_api(self, api: str) -> tuple[Entry, ...]:
        return self.catalog.for_api(api)


class HoverIndex:
    """An index file opened: its header read, an API's entries read (each once) when asked."""

    def __init__(
        self,
        path: Path,
        start: int,
        apis: Mapping[str, tuple[int, ...]],
        ends: array[int],
        releases: tuple[str, ...],
    ) -> None:
        self.path = path
        self._start = start
        self.apis = apis
        self._ends = ends
        self.releases = releases
        self._entries: dict[int, Entry] = {}
        # Kept open: another environment's server may replace the cache's index file (one
        # catalog at a time), and an open file still reads what it was.
        self._stream: BinaryIO | None = None
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: Path) -> HoverIndex | None:
        """The index at `path`; None when it is missing or not one (it is then rebuilt)."""
        try:
            stream = path.open("rb")
        except OSError:
            return None
        try:
            if stream.read(len(MAGIC)) != MAGIC:
                stream.close()
                return None
            (size,) = LENGTH.unpack(stream.read(LENGTH.size))
            header = pickle.loads(stream.read(size))
            ends = array("Q")
            ends.frombytes(header["ends"])
            start = len(MAGIC) + LENGTH.size + size  # offsets count from the end of the header
            index = cls(path, start, header["apis"], ends, tuple(header["releases"]))
        except Exception:  # noqa: BLE001 - a bad index is only a slower first hover
            stream.close()
            return None
        index._stream = stream
        return index

    def for_api(self, api: str) -> tuple[Entry, ...]:
        numbers = self.apis.get(api, ())
        missing = [n for n in numbers if n not in self._entries]
        if missing:
            with self._lock:
                if self._stream is None:  # made by hand rather than by `open`
                    self._stream = self.path.open("rb")
                for number in missing:
                    begin = self._ends[number - 1] if number else 0
                    self._stream.seek(self._start + begin)
                    blob = self._stream.read(self._ends[number] - begin)
                    self._entries[number] = pickle.loads(blob)
        return tuple(self._entries[n] for n in numbers)


def write_index(path: Path, catalog: Catalog) -> None:
    """Store `catalog`'s hover index at `path` (atomically). Each entry is stored once, however
    many APIs raise it; an API lists its entries' numbers in the catalog's order for it."""
    number: dict[int, int] = {}  # id(entry) -> its number
    blobs: list[bytes] = []
    apis: dict[str, tuple[int, ...]] = {}
    for api, entries in catalog.by_api.items():
        for entry in entries:
            if id(entry) not in number:
                number[id(entry)] = len(blobs)
                blobs.append(pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))
        apis[api] = tuple(number[id(entry)] for entry in entries)
    ends = array("Q")
    total = 0
    for blob in blobs:
        total += len(blob)
        ends.append(total)
    header = pickle.dumps(
        {"apis": apis, "ends": ends.tobytes(), "releases": releases_of(catalog.entries)},
        protocol=pickle.HIGHEST_PROTOCOL,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(MAGIC + LENGTH.pack(len(header)) + header)
            out.write(b"".join(blobs))
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
