"""How the file imports things: local names to qualified names, and adding a missing import."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from jaxerr_ls.fixes.base import TextEdit
from jaxerr_ls.fixes.syntax import Node, index, parse

# Modules that `import jax` alone makes reachable as attributes (jax imports them itself).
_REACHABLE_FROM_JAX = ("jax.numpy", "jax.lax", "jax.random", "jax.scipy", "jax.nn", "jax.tree")


@dataclass(frozen=True)
class Imports:
    """`bindings` maps a local name to what it refers to: `jnp` -> `jax.numpy`."""

    bindings: Mapping[str, str]
    insert_at: tuple[int, int]  # 0-based (line, col) where a new import line goes
    insert_needs_newline: bool  # the file's last line has no newline before the insertion point
    taken: frozenset[str] = frozenset()  # module-level names bound by other statements

    def free(self, name: str) -> bool:
        return name not in self.bindings and name not in self.taken

    def qualify(self, dotted: str) -> str | None:
        """`jnp.sin` -> `jax.numpy.sin`; None when the first name is not an import."""
        head, _, rest = dotted.partition(".")
        target = self.bindings.get(head)
        if target is None:
            return None
        return f"{target}.{rest}" if rest else target

    def spell(self, qualified: str) -> str | None:
        """The shortest way this file can write `qualified` with its existing imports."""
        best: str | None = None
        for local, target in self.bindings.items():
            if qualified == target:
                candidate = local
            elif qualified.startswith(target + "."):
                if target == "jax" and not _reachable(qualified):
                    continue
                candidate = local + qualified[len(target) :]
            else:
                continue
            if best is None or len(candidate) < len(best):
                best = candidate
        return best

    def add_line(self, line: str) -> TextEdit:
        """An edit inserting `line` (no newline) as a new import line."""
        row, col = self.insert_at
        text = ("\n" + line) if self.insert_needs_newline else line + "\n"
        return TextEdit(row, col, row, col, text)


def _reachable(qualified: str) -> bool:
    parts = qualified.split(".")
    if len(parts) <= 2:
        return True  # jax.jit, jax.numpy
    return ".".join(parts[:2]) in _REACHABLE_FROM_JAX


def _statement_bindings(code: str) -> dict[str, str]:
    try:
        tree = ast.parse(code.strip())
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    found[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    found[head] = head
        elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
            for alias in stmt.names:
                if alias.name != "*":
                    found[alias.asname or alias.name] = f"{stmt.module}.{alias.name}"
    return found


@lru_cache(maxsize=16)
def scan_imports(source: str) -> Imports:
    module = parse(source)
    bindings: dict[str, str] = {}
    for node in index(source).imports:
        bindings.update(_statement_bindings(node.code()))
    bindings.update(_aliases(module, bindings))
    row, col, needs_newline = _insert_point(module, source)
    return Imports(
        MappingProxyType(bindings), (row, col), needs_newline, _module_names(module) - set(bindings)
    )


def _aliases(module: Node, bindings: Mapping[str, str]) -> dict[str, str]:
    """Module-level `jit = jax.jit`: the name is read like an import of what it aliases."""
    found: dict[str, str] = {}
    for stmt in module.children:
        node = stmt.children[0] if stmt.type == "simple_stmt" else stmt
        kids = node.children if node.type == "expr_stmt" else []
        if len(kids) != 3 or not kids[0].is_name() or not kids[1].is_op("="):
            continue
        value = kids[2]
        text = value.code().strip()
        if not (value.is_name() or value.type in ("power", "atom_expr")):
            continue
        if any(not part.isidentifier() for part in text.split(".")):
            continue  # a call, a subscript: not a plain alias
        head, _, rest = text.partition(".")
        bound = {**bindings, **found}.get(head)
        if bound is not None and kids[0].value != head:
            found[kids[0].value] = f"{bound}.{rest}" if rest else bound
    return found


def _module_names(module: Node) -> frozenset[str]:
    """Names the module's own statements bind (`jax = ...`, `def jnp`): an import would clash."""
    names: set[str] = set()
    for stmt in module.children:
        node = stmt.children[0] if stmt.type == "simple_stmt" else stmt
        if node.type == "decorated":
            node = node.children[-1]
        if node.type in ("funcdef", "classdef"):
            names.add(node.children[1].value)
        elif node.type == "expr_stmt":
            kids = node.children
            names.update(k.value for k in kids[:-1:2] if k.is_name())
    return frozenset(names)


def _is_docstring(stmt: Node) -> bool:
    kids = stmt.children
    return stmt.type == "simple_stmt" and kids[0].type == "string"


def _is_import(stmt: Node) -> bool:
    return stmt.type == "simple_stmt" and all(
        k.type in ("import_name", "import_from", "newline") or k.is_op(";") for k in stmt.children
    )


def _insert_point(module: Node, source: str) -> tuple[int, int, bool]:
    """After the leading imports, else after the docstring, else before the first statement."""
    after: Node | None = None
    first: Node | None = None
    for position, stmt in enumerate(module.children):
        if stmt.type == "endmarker":
            break
        if first is None:
            first = stmt
        if (position == 0 and _is_docstring(stmt)) or _is_import(stmt):
            after = stmt
            continue
        break
    if after is not None:
        line, col = after.end
        if col != 0:  # last line without a newline
            return line - 1, col, True
        return line - 1, 0, False
    if first is not None:
        return first.start[0] - 1, 0, False
    lines = source.splitlines()
    if source and not source.endswith(("\n", "\r")):
        return len(lines) - 1, len(lines[-1]), True
    return len(lines), 0, False


@dataclass(frozen=True)
class Spelled:
    """How to write a qualified name, plus the import line to add when the file lacks one."""

    text: str
    import_line: str | None


def spell_or_import(
    imports: Imports, qualified: str, module_alias: tuple[str, str] | None = None
) -> Spelled | None:
    """Spell `qualified`; when the file has no name for `module_alias`'s module, import it.

    `module_alias` is (module, alias), e.g. ("jax.numpy", "jnp"): a file with only `import jax`
    gets `import jax.numpy as jnp` rather than `jax.numpy.where`, unless `jnp` is taken.
    Returns None when nothing can spell it without clashing with an existing name.
    """
    if module_alias is not None:
        module, alias = module_alias
        direct = any(
            target == module
            or target.startswith(module + ".")
            or module.startswith(target + ".")
            and target != "jax"
            for target in imports.bindings.values()
        )
        existing = imports.spell(qualified)
        if existing is not None and (direct or module == "jax"):
            return Spelled(existing, None)
        if imports.free(alias):
            line = f"import {module} as {alias}" if alias != module else f"import {module}"
            return Spelled(alias + qualified[len(module) :], line)
        return Spelled(existing, None) if existing is not None else None
    existing = imports.spell(qualified)
    if existing is not None:
        return Spelled(existing, None)
    top = qualified.split(".")[0]
    if not imports.free(top):
        return None  # the name means something else here
    return Spelled(qualified, f"import {top}")


def spell_jnp(imports: Imports) -> Spelled | None:
    """How the file names `jax.numpy`, importing it as `jnp` when it has no name for it."""
    return spell_or_import(imports, "jax.numpy", ("jax.numpy", "jnp"))
