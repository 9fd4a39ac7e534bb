"""The public API history of the libraries used with JAX (Flax, Optax, Equinox, Chex, Orbax's
checkpointing), built like JAX's from their wheels (read, never imported): which releases have
each module and name.

It answers what JAX's history answers for `jax.*`: `module 'flax' has no attribute 'optim'` is a
module Flax removed (gone by 0.6.3, present in 0.5.3), `flax.linen.initializers.zeros_init` a name
the user's older Flax lacks. Stored in one file, `catalog/library-api-history.json.gz`:
`{"format": 1, "libraries": {"flax": <history as api-history.json>, ...}}`. The releases read
are every one the package index serves (`history_releases`).
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from jaxerr_ls.catalog.model import LIBRARIES as LIBRARY_NAMES
from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.upgrades.build import build_history, scan_wheel
from jaxerr_ls.upgrades.history import ApiHistory

FORMAT = 1
HISTORY_FILE = "library-api-history.json.gz"
# The libraries whose API history is kept, by their name on the package index. Their releases
# read are every one the package index serves, as for their raise sites (`history_releases`).
PIP_NAMES: Mapping[str, str] = {
    "flax": "flax",
    "optax": "optax",
    "equinox": "equinox",
    "chex": "chex",
    "orbax": "orbax-checkpoint",
}


def history_releases(library: str) -> tuple[str, ...]:
    """The releases the history reads: those the raise-site extraction reads
    (`extract/libraries.py`), so "removed in Flax 0.6.0" is the release that removed it."""
    from jaxerr_ls.extract.libraries import LIBRARIES

    earlier = before_history(library)
    releases = LIBRARIES[library].releases
    if earlier is None:
        return releases
    return tuple(r for r in releases if version_key(r) >= version_key(earlier[1]))


# Orbax's first releases read (0.0.23, 0.1.0) were published as `orbax`, not under the name the
# history downloads (`orbax-checkpoint`): its history starts at the first release of that name.
_EARLIER_NAME = {"orbax": ("orbax", "0.1.4")}


def before_history(library: str) -> tuple[str, str] | None:
    """(the package published earlier, the first release the history reads) for a library whose
    history does not start at its first release; None when it does."""
    return _EARLIER_NAME.get(library)


# Where each library documents its API (the JAX entries link JAX's API compatibility policy).
DOCS = {
    "flax": "https://flax.readthedocs.io/en/latest/",
    "optax": "https://optax.readthedocs.io/",
    "equinox": "https://docs.kidger.site/equinox/",
    "chex": "https://chex.readthedocs.io/",
    "orbax": "https://orbax.readthedocs.io/",
}
_WHEEL = re.compile(r"^(?P<dist>[A-Za-z0-9_.]+?)-(?P<version>\d[^-]*)-py\d")
_ROOT = re.compile(r"^(?P<root>[a-z]+)\.")


def wheel_release(path: Path, library: str) -> str | None:
    """`flax-0.6.3-py3-none-any.whl` -> `0.6.3` for library `flax`; None for another's wheel."""
    found = _WHEEL.match(path.name)
    dist = PIP_NAMES.get(library, library)
    if found is None or found.group("dist").replace("_", "-").lower() != dist:
        return None
    return found.group("version")


def build_library_history(library: str, wheels: Iterable[Path]) -> dict[str, object]:
    """One library's history (the format of `catalog/api-history.json`) from its wheels."""
    scans = {}
    for path in wheels:
        release = wheel_release(path, library)
        if release is not None:
            scans[release] = scan_wheel(path, library)
    if not scans:
        raise ValueError(f"no {library} wheels given")
    return build_history(scans)


def write_histories(path: Path, histories: Mapping[str, dict[str, object]]) -> int:
    """Merge the given libraries' histories into the file (others kept); its size in bytes."""
    data: dict[str, object] = {"format": FORMAT, "libraries": {}}
    if path.exists():
        data = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    libraries = data.setdefault("libraries", {})
    assert isinstance(libraries, dict)
    libraries.update(histories)
    text = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    blob = gzip.compress(text.encode("utf-8"), mtime=0)
    path.write_bytes(blob)
    return len(blob)


def history_path() -> Path:
    from jaxerr_ls.catalog.load import catalog_dir

    return catalog_dir() / HISTORY_FILE


@lru_cache(maxsize=1)
def _load(path: Path | None = None) -> dict[str, ApiHistory]:
    try:
        data = json.loads(gzip.decompress((path or history_path()).read_bytes()).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, EOFError):
        return {}
    libraries = data.get("libraries", {}) if isinstance(data, dict) else {}
    return {
        name: ApiHistory(history)
        for name, history in (libraries.items() if isinstance(libraries, dict) else ())
        if isinstance(history, dict)
    }


def library_of_name(dotted: str) -> str | None:
    """`flax.linen.initializers.zeros_init` -> `flax`; None for JAX's names and unknown roots."""
    found = _ROOT.match(dotted + ".")
    root = found.group("root") if found else ""
    return root if root in LIBRARY_NAMES and root in PIP_NAMES else None


def library_history(library: str) -> ApiHistory | None:
    """The shipped history of one library; None when it has none."""
    return _load().get(library)
