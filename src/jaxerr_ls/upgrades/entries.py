"""The entries the API history speaks through, and how one is shown: with the class printed
and Python's wording for it. Shared by `resolve` (a name the history knows) and `absent` (one it
does not)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from jaxerr_ls.catalog.model import Entry
from jaxerr_ls.catalog.templates import short_class

REMOVED_API = "removed-api"
REMOVED_MODULE = "removed-module"
NOT_YET_ADDED = "api-not-yet-added"
DEPRECATED_API = "deprecated-api"
IN_ANOTHER_MODULE = "jax-name-in-another-module"
# A name under `jax._src` or starting with `_`: no history is kept of private names.
PRIVATE_NAME = "jax-private-name-missing"
# `jax.experimental.sparse` used after `import jax` alone: a module its parent does not load.
SUBMODULE_NOT_IMPORTED = "jax-submodule-not-imported"
UPGRADE_ENTRIES = frozenset(
    {
        REMOVED_API,
        REMOVED_MODULE,
        NOT_YET_ADDED,
        DEPRECATED_API,
        IN_ANOTHER_MODULE,
        PRIVATE_NAME,
        SUBMODULE_NOT_IMPORTED,
    }
)

# A library's changed API, said after the name's own facts (the JAX entries' general text is
# about JAX's deprecation policy and `jaxerr-ls check`, which reads JAX's names only).
LIBRARY_MEANING = """The libraries used with JAX change their public API between releases too:
Flax dropped `flax.optim` for Optax and moved names between `flax.linen` modules, Optax and
Equinox add optimizers, state classes and filters release by release. The catalog records, for
every release of each library read from its wheels, which modules and names each had: a
name the installed release lacks was either removed after the code was written, or the code
needs a newer release than the one installed."""
# A missing name raises one of three classes, by how the code reaches it (checked under real
# JAX: tests/upgrades/programs): `jax.ops.index_update` -> AttributeError, `from jax.ops import
# index_update` -> ImportError, `import jax.linear_util` -> ModuleNotFoundError. The entry shown
# is of the class printed, with Python's wording for that form.
_ERRORS = {
    "AttributeError": "module '{module}' has no attribute '{name}'",
    "ImportError": "cannot import name '{name}' from '{module}'",
    "ModuleNotFoundError": "No module named '{module}'",
}


def as_printed(entry: Entry, exception: str, **changes: Any) -> Entry:
    """The entry shown with the class printed and Python's wording for it (a missing name is an
    AttributeError, ImportError or ModuleNotFoundError by how the code reached it)."""
    printed = short_class(exception)
    form = _ERRORS.get(printed)
    return replace(
        entry,
        exception=printed if form else entry.exception,
        message=form or entry.message,
        **changes,
    )
