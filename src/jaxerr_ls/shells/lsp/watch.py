"""Which `.jaxerr/*.txt` files appeared, changed or went away since the last look.

Polled about once a second as well as on file events: clients miss events when the folder is
created together with its first file, and some clients cannot watch files at all.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from jaxerr_ls.explain.files import JAXERR_DIR

GLOB = f"**/{JAXERR_DIR}/*.txt"
MAX_BYTES = 4 << 20  # a traceback file larger than this is read from its end

Stamp = tuple[int, int]  # (mtime_ns, size)


@dataclass(frozen=True)
class Diff:
    changed: tuple[str, ...]
    removed: tuple[str, ...]


def scan(folders: Iterable[Path]) -> dict[str, Stamp]:
    """path -> stamp for every `.jaxerr/*.txt` directly under each folder."""
    found: dict[str, Stamp] = {}
    for folder in folders:
        try:
            with os.scandir(folder / JAXERR_DIR) as entries:
                for entry in entries:
                    if entry.name.endswith(".txt") and entry.is_file():
                        info = entry.stat()
                        found[entry.path] = (info.st_mtime_ns, info.st_size)
        except OSError:
            continue
    return found


def diff(before: Mapping[str, Stamp], after: Mapping[str, Stamp]) -> Diff:
    changed = tuple(sorted(p for p, s in after.items() if before.get(p) != s))
    removed = tuple(sorted(p for p in before if p not in after))
    return Diff(changed, removed)


def read_text(path: str) -> str | None:
    """The file as text (undecodable bytes replaced); its tail when it is very large."""
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - MAX_BYTES))
            return handle.read().decode("utf-8", errors="replace")
    except OSError:
        return None
