"""A file of the user's named like the library it imports (`optax.py`, `jax.py`): Python imports
that file instead of the library, and every name the library has is "missing".

Python says so itself only sometimes ("partially initialized module 'jax' has no attribute
'numpy' (most likely due to a circular import)" when the file imports itself, and Python 3.13's
"consider renaming ..."; the curated entry's patterns match those). When the shadowing file has
finished importing, the error is the plain `module 'optax' has no attribute 'masked'`: the
traceback's frames then show code running in a file named `optax.py` outside any installed
package, which names the cause.
"""

from __future__ import annotations

import re

from jaxerr_ls.catalog.match import Matcher
from jaxerr_ls.catalog.model import SHADOWED_ENTRY
from jaxerr_ls.catalog.sites import site_file
from jaxerr_ls.catalog.templates import Match, short_class
from jaxerr_ls.tracebacks.model import Frame

# The libraries whose shadowing the catalog explains (the JAX stack).
_ROOTS = ("jax", "jaxlib", "flax", "optax", "equinox", "orbax", "chex")
_NO_ATTRIBUTE = re.compile(r"module '(?P<module>\w+)(?:\.\w+)*' has no attribute '(?P<name>\w+)'")
_INSTALLED = ("site-packages", "dist-packages")


def shadowing_file(module: str, frames: tuple[Frame, ...]) -> str | None:
    """The frame's file named `<module>.py` that is not an installed package's, or None."""
    for frame in frames:
        unified = frame.path.replace("\\", "/")
        name = unified.rsplit("/", 1)[-1]
        if name != f"{module}.py" or any(part in unified for part in _INSTALLED):
            continue
        if site_file(frame.path) is None:
            return frame.path
    return None


def match_shadowed(
    matcher: Matcher, exception: str, message: str, frames: tuple[Frame, ...]
) -> Match | None:
    """The shadowing entry for `module 'optax' has no attribute 'masked'` raised while code in
    a user's `optax.py` runs; None otherwise."""
    if short_class(exception) != "AttributeError":
        return None
    found = _NO_ATTRIBUTE.search(message)
    if found is None or found.group("module") not in _ROOTS:
        return None
    file = shadowing_file(found.group("module"), frames)
    entry = matcher.catalog.get(SHADOWED_ENTRY)
    if file is None or entry is None:
        return None
    fields = {"module": found.group("module"), "name": found.group("name"), "file": file}
    return Match(entry, fields, 90)
