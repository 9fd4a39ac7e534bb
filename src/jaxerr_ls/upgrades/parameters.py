"""The keyword parameters of JAX's public functions in every release, read from the sources.

`TypeError: jit() got an unexpected keyword argument 'backend'` is version skew when the
parameter existed in other releases (code written for another JAX), a typo when it never did.
Which one, the history says: for each public function (and class, through its `__init__`), the
releases that accepted each keyword. Pure: source text in, a JSON-ready dict out; JAX is never
imported.

A public name is followed through `from ... import` re-exports to the `def` (or `class`) that
binds it, in JAX's own modules only. Stored like the API history: release ranges per parameter,
"" when the range is the function's own.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.upgrades.build import (
    _SKIP_NAMES,
    NEVER,
    _python_files,
    module_name,
    ranges,
    wheel_version,
)

FORMAT = 2
# Re-exports followed at most this deep (`jax.jit` -> `jax._src.api.jit`: one).
_MAX_HOPS = 6


@dataclass(frozen=True)
class Signature:
    keywords: tuple[str, ...]  # parameters a call may name (not positional-only ones)
    open: bool  # `**kwargs`: any keyword is accepted


def _dotted(relative: str) -> str:
    """`jax/_src/api.py` -> `jax._src.api`; `jax/_src/numpy/__init__.py` -> `jax._src.numpy`."""
    parts = relative[: -len(".py")].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _signature(function: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> Signature:
    arguments = function.args
    positional = [a.arg for a in arguments.args]
    if method and not arguments.posonlyargs and positional:
        positional = positional[1:]  # `self` (positional-only ones are no keywords anyway)
    named = (*positional, *(a.arg for a in arguments.kwonlyargs))
    return Signature(tuple(named), arguments.kwarg is not None)


def _top_level(tree: ast.Module) -> Iterable[ast.stmt]:
    """Top-level statements, and those inside top-level `try` and `if` blocks (optional imports,
    version switches); the last binding of a name wins, as at run time."""
    for statement in tree.body:
        yield statement
        if isinstance(statement, ast.Try):
            yield from statement.body
        elif isinstance(statement, ast.If):
            yield from statement.body
            yield from statement.orelse


class _Release:
    """One release's sources, parsed on demand."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self._text = {_dotted(relative): text for relative, text in files.items()}
        self._trees: dict[str, ast.Module | None] = {}

    def tree(self, module: str) -> ast.Module | None:
        if module not in self._trees:
            text = self._text.get(module)
            try:
                self._trees[module] = ast.parse(text) if text is not None else None
            except SyntaxError:  # a Python-2-only file of 2018
                self._trees[module] = None
        return self._trees[module]

    def _package(self, module: str) -> str:
        """The package a module's relative imports start from."""
        tree_is_package = module in self._text and self._is_package(module)
        return module if tree_is_package else module.rpartition(".")[0]

    def _is_package(self, module: str) -> bool:
        return any(name.startswith(module + ".") for name in self._text)

    def resolve(self, module: str, name: str, hops: int = 0) -> Signature | None:
        """The signature `module.name` is bound to, or None (not a function or class of JAX's,
        or bound by something not followed: an assignment, a call's result)."""
        tree = self.tree(module)
        if tree is None or hops > _MAX_HOPS:
            return None
        found: Signature | None = None
        for statement in _top_level(tree):
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if statement.name == name:
                    found = _signature(statement, method=False)
            elif isinstance(statement, ast.ClassDef):
                if statement.name == name:
                    found = _init_of(statement)
            elif isinstance(statement, ast.ImportFrom):
                source = self._source(module, statement)
                for alias in statement.names:
                    if alias.name == "*" and source is not None:
                        # `from jax.api import *` (2019): the name, if the module has it.
                        found = self.resolve(source, name, hops + 1) or found
                    elif (alias.asname or alias.name) == name:
                        found = (
                            self.resolve(source, alias.name, hops + 1)
                            if source is not None
                            else None
                        )
            elif isinstance(statement, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in statement.targets
            ):
                found = found if _rewraps(statement.value, name) else None
        return found

    def names(self, module: str, hops: int = 0) -> set[str]:
        """The public names a module's top level binds, star imports from JAX's modules too."""
        tree = self.tree(module)
        if tree is None or hops > _MAX_HOPS:
            return set()
        names: set[str] = set()
        for statement in _top_level(tree):
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(statement.name)
            elif isinstance(statement, ast.ImportFrom):
                source = self._source(module, statement)
                for alias in statement.names:
                    if alias.name != "*":
                        names.add(alias.asname or alias.name)
                    elif source is not None:
                        names |= self.names(source, hops + 1)
        return {name for name in names if not name.startswith("_")}

    def _source(self, module: str, statement: ast.ImportFrom) -> str | None:
        if statement.level:
            base = self._package(module)
            for _ in range(statement.level - 1):
                base = base.rpartition(".")[0]
            source = f"{base}.{statement.module}" if statement.module else base
        else:
            source = statement.module or ""
        return source if source.split(".")[0] == "jax" else None


def _rewraps(value: ast.expr, name: str) -> bool:
    """`jit = api_boundary(jit, ...)`: a wrapper that keeps the function's signature."""
    return isinstance(value, ast.Call) and any(
        isinstance(arg, ast.Name) and arg.id == name for arg in value.args
    )


def _init_of(cls: ast.ClassDef) -> Signature | None:
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and (
            statement.name == "__init__"
        ):
            return _signature(statement, method=True)
    return None


def release_signatures(files: Mapping[str, str]) -> dict[str, Signature]:
    """Public dotted name -> signature, for one release's `jax/...py` files."""
    release = _Release(files)
    out: dict[str, Signature] = {}
    for relative in sorted(files):
        module = module_name(relative)
        if module is None or module.startswith(_SKIP_NAMES):
            continue
        for name in sorted(release.names(module)):
            signature = release.resolve(module, name)
            if signature is not None:
                out[f"{module}.{name}"] = signature
    return out


def build_parameter_history(by_release: Mapping[str, Mapping[str, Signature]]) -> dict[str, object]:
    """{"releases": [...], "functions": {name: record}}, each record one string (thousands of
    them stay a few megabytes lighter in memory than nested tables): `own|open|kw=range|...`,
    the release ranges of the function, of its `**kwargs` ("-" never) and of each keyword
    ("" when it is the function's own)."""
    releases = sorted(by_release, key=version_key)
    functions: dict[str, str] = {}
    for name in sorted({n for signatures in by_release.values() for n in signatures}):
        per_release = [by_release[r].get(name) for r in releases]
        own = ranges([s is not None for s in per_release], releases)
        open_range = ranges([s is not None and s.open for s in per_release], releases)
        keywords = sorted({k for s in per_release if s is not None for k in s.keywords})
        parts = [own, "" if open_range == own else open_range or NEVER]
        for keyword in keywords:
            span = ranges([s is not None and keyword in s.keywords for s in per_release], releases)
            parts.append(f"{keyword}={'' if span == own else span}")
        functions[name] = "|".join(parts)
    return {"format": FORMAT, "releases": releases, "functions": functions}


def signatures_of(path: Path) -> tuple[str, dict[str, Signature]] | None:
    """(release, signatures) of a JAX wheel or source distribution; None for another file."""
    version = wheel_version(path)
    if version is None:
        return None
    return version, release_signatures(_python_files(path))
