"""Which JAX raised a traceback: the `jax-<version>.dist-info` beside the `jax/` its frames
run in (read from the file system, never imported)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

_SITE = re.compile(r"^(?P<site>.*[/\\](?:site|dist)-packages)[/\\]jax[/\\]")
_DIST = re.compile(r"^jax-(?P<version>\d[^-]*)\.dist-info$")


@lru_cache(maxsize=32)
def _version_in(site: str) -> str | None:
    try:
        names = [p.name for p in Path(site).iterdir()]
    except OSError:
        return None
    found = [m.group("version") for name in names if (m := _DIST.match(name))]
    return found[0] if len(found) == 1 else None


def jax_version_of(paths: Iterable[str]) -> str | None:
    """The version of the JAX whose files appear in `paths` (frame paths), when it can be read."""
    for path in paths:
        found = _SITE.match(path)
        if found is not None:
            version = _version_in(found.group("site"))
            if version is not None:
                return version
    return None
