"""Which shipped index (`catalog/index/jax-<version>.json`) fits the installed JAX."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

_INDEX = re.compile(r"^jax-(?P<version>\d[^/]*)\.json$")
_PART = re.compile(r"\d+|[A-Za-z]+")


def installed_jax_version() -> str | None:
    """The installed JAX's version from its distribution metadata (JAX is never imported)."""
    try:
        return metadata.version("jax")
    except metadata.PackageNotFoundError:
        return None


def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    """Orders versions numerically part by part: 0.9.0 < 0.10.2 < 0.10.10; a pre-release
    (0.10.0rc1, 0.10.0.dev20250101) sorts before its release."""
    release, _, rest = version.partition("+")
    key: list[tuple[int, int | str]] = []
    for part in _PART.findall(release):
        # (1, n) for numbers, (0, text) for letters ("rc", "dev" sort below any number),
        # (2, 0) for "post", which follows its release.
        if part.isdigit():
            key.append((1, int(part)))
        else:
            key.append((2, 0) if part.lower() == "post" else (0, part.lower()))
    key.append((0, "~"))  # a release sorts after its own pre-releases (letters < "~")
    return tuple(key)


def shipped_indexes(index_dir: Path) -> dict[str, Path]:
    """Version -> index file, for every `jax-<version>.json` in `index_dir`."""
    if not index_dir.is_dir():
        return {}
    found: dict[str, Path] = {}
    for path in index_dir.iterdir():
        match = _INDEX.match(path.name)
        if match is not None and path.is_file():
            found[match.group("version")] = path
    return found


MULTI_INDEX = "releases.json.gz"  # every release 0.4.26-0.10.2 in one file


def pick_index(index_dir: Path, installed: str | None) -> Path | None:
    """The multi-release index when shipped; else the index of the installed JAX version when
    shipped, else the newest one shipped."""
    multi = index_dir / MULTI_INDEX
    if multi.is_file():
        return multi
    shipped = shipped_indexes(index_dir)
    if not shipped:
        return None
    if installed is not None and installed in shipped:
        return shipped[installed]
    newest = max(shipped, key=lambda v: (version_key(v), v))
    return shipped[newest]
