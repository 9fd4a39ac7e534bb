"""A package's public names imported on first use (PEP 562's module `__getattr__`).

The language server's start and first hover import a few small modules of the core packages;
their `__init__` must not import the rest (the catalog's loader and matcher, the traceback
parser, the tracing model) before anything asks for it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def names_on_first_use(namespace: dict[str, Any], homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The `__getattr__` of the package whose `globals()` is `namespace`: each name in `homes`
    comes from the submodule named there, imported when the name is first asked for and kept in
    the package's namespace after that."""
    package = namespace["__name__"]

    def load(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    return load
