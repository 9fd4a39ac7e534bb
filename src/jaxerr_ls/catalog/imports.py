"""A library of the JAX stack that fails while it is being imported, its message not copied.

`import optax` that stops with an `AttributeError` (or `ImportError`) inside optax's or chex's
module-level imports is a library written for another JAX release: its modules use a name the
installed JAX removed or has not added yet (chex's `jax.tree_structure`, optax's
`jax.experimental.maps`). A notebook excerpt often stops in those import frames, before the
message that would name the attribute; the frames still say what happened, so they name the entry.
`import jax` that stops so inside JAX's own modules is JAX failing to load (jaxlib missing or of
another release, a NumPy it was not built for): an entry of its own.
"""

from __future__ import annotations

import re

from jaxerr_ls.catalog.match import Matcher
from jaxerr_ls.catalog.model import JAX_IMPORT_ENTRY, LIBRARY_SKEW_ENTRY
from jaxerr_ls.catalog.sites import SITE_SCORE, installed_package, site_file
from jaxerr_ls.catalog.templates import Match, short_class
from jaxerr_ls.tracebacks.model import Frame

_CLASSES = frozenset({"AttributeError", "ImportError", "ModuleNotFoundError"})
# An import statement, the line a module-level frame stops on while importing.
_IMPORT = re.compile(r"(?:from\s+[\w.]+\s+import\b|import\s+[\w.]+)")
# Installed packages written on JAX's API besides the catalog's libraries (and any whose name
# says `jax`): their imports fail the same way on a JAX they were not written for.
_JAX_PACKAGES = frozenset(
    {
        "haiku", "numpyro", "distrax", "rlax", "jraph", "diffrax", "optimistix", "lineax",
        "blackjax", "jaxopt", "trax", "objax", "elegy", "brax", "alphafold", "colabfold",
        "evosax", "gymnax", "netket", "dynamax", "mctx", "dm_pix", "jax_md",
    }
)  # fmt: skip
# `No module named 'absl'`: a top-level module that is neither JAX's nor jaxlib's (those have
# entries of their own).
_THIRD_PARTY = re.compile(r"\ANo module named '(?P<module>(?!jax(?:lib)?\b)[A-Za-z_]\w*)'\Z")
# A message cut this short inside its first word says nothing the frames do not.
_MAX_CUT_WORD = 40


def _library(frame: Frame) -> str | None:
    """The library package of a JAX-stack library's frame (`jax` for JAX's own), or None."""
    file = site_file(frame.path)
    if file is not None:
        return file.split("/", 1)[0]
    package = installed_package(frame.path)
    if package is None:
        return None
    if package == "jaxlib":
        return "jax"  # JAX's compiled half, imported by JAX's own modules
    if package in _JAX_PACKAGES or "jax" in package.lower():
        return package
    return None


def _says_nothing(message: str) -> bool:
    """No message, or one cut inside its first word (`ImportError: /home/fferrett`)."""
    text = message.strip()
    return not text or (len(text) <= _MAX_CUT_WORD and not any(c.isspace() for c in text))


def _importing(frame: Frame) -> bool:
    """A module-level frame: `<module>`, IPython 8's frame header naming no function
    (`File .../optax/__init__.py:17`), or one that stops on an import statement."""
    return frame.function in ("<module>", "") or _IMPORT.match(frame.source) is not None


def match_library_import(
    matcher: Matcher, exception: str, message: str, frames: tuple[Frame, ...]
) -> Match | None:
    """The version-skew entry for an `AttributeError`/`ImportError` cut before its message (or
    inside its first word) whose innermost frame is a JAX-stack library's module-level import,
    with every frame from the library's first one inward importing too (JAX's own: the entry
    for JAX failing to load); None otherwise."""
    if short_class(exception) not in _CLASSES or not frames:
        return None
    # A module JAX's own import needs and the environment lacks (`from absl import logging` in
    # a release that did not declare it, jax#27715): named, and JAX's import is where it failed.
    dependency = _THIRD_PARTY.match(message.strip())
    if not _says_nothing(message) and dependency is None:
        return None
    libraries = [_library(frame) for frame in frames]
    if dependency is not None and libraries[-1] != "jax":
        return None
    first = next((i for i, library in enumerate(libraries) if library is not None), None)
    if first is None or libraries[-1] is None:
        return None
    if not all(_importing(frame) for frame in frames[first:]):
        return None
    library = libraries[first]
    entry = matcher.catalog.get(JAX_IMPORT_ENTRY if library == "jax" else LIBRARY_SKEW_ENTRY)
    if entry is None or library is None:
        return None
    where = f"while `import {library}` ran its module-level imports"
    if dependency is not None:
        where += f": it imports `{dependency['module']}`, which is not installed"
    stopped_on = frames[-1].source.strip()
    if library == "jax" and ("jaxlib" in stopped_on or "xla_extension" in stopped_on):
        where += f", at `{stopped_on}`"
    return Match(entry, {"library": library}, SITE_SCORE, by="raise_site", where=where)
