"""Where a file uses JAX's public names: attribute chains (`jnp.row_stack`), imports
(`from jax import tree_map`, `import jax.experimental.maps`), with the names qualified through
the file's imports. Pure (ast); positions are 0-based lines and code-point columns."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from jaxerr_ls.extract.classes import chain_of as attribute_chain

Kind = Literal["attribute", "import", "from-import", "from-module"]


@dataclass(frozen=True)
class Use:
    name: str  # qualified, "jax.numpy.row_stack"
    kind: Kind
    line: int
    column: int
    end_line: int
    end_column: int
    node: ast.AST  # the chain, the import statement, or the alias
    # Under a version test or a `try` that catches the failure: code written for several
    # releases (`if hasattr(jax, "shard_map"): ... else: jax.experimental...`), not flagged.
    guarded: bool = False


@dataclass(frozen=True)
class FileUses:
    uses: tuple[Use, ...]
    bindings: Mapping[str, str]  # local name -> qualified name (jnp -> jax.numpy)
    lines: tuple[str, ...]
    # Ids of the nodes under a version test or a guarding `try` (other checks of the same
    # tree read it instead of walking the tree again).
    guarded: frozenset[int] = frozenset()


def _column(lines: tuple[str, ...], line: int, byte_offset: int) -> int:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if text.isascii():
        return byte_offset
    return len(text.encode("utf-8")[:byte_offset].decode("utf-8", errors="replace"))


def _span(lines: tuple[str, ...], node: ast.AST) -> tuple[int, int, int, int]:
    start, end = getattr(node, "lineno", 1), getattr(node, "end_lineno", None) or 1
    return (
        start - 1,
        _column(lines, start, getattr(node, "col_offset", 0)),
        end - 1,
        _column(lines, end, getattr(node, "end_col_offset", None) or 0),
    )


def _is_jax(module: str) -> bool:
    return module == "jax" or module.startswith("jax.")


def chain_of(node: ast.expr) -> list[str] | None:
    """`jax.numpy.row_stack` -> ["jax", "numpy", "row_stack"]; None for anything else."""
    chain = attribute_chain(node)
    return list(chain) if chain is not None else None


def collect_uses(source: str, tree: ast.Module | None = None) -> FileUses | None:
    """Every JAX name the file uses; None when it does not parse."""
    if tree is None:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            return None
    lines = tuple(source.splitlines())
    bindings: dict[str, str] = {}
    uses: list[Use] = []

    nodes = list(ast.walk(tree))
    guarded = _guarded_nodes(nodes)

    def add(name: str, kind: Kind, node: ast.AST) -> None:
        uses.append(Use(name, kind, *_span(lines, node), node, id(node) in guarded))

    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _is_jax(alias.name):
                    continue
                if alias.asname:
                    bindings[alias.asname] = alias.name
                else:
                    bindings[alias.name.split(".")[0]] = alias.name.split(".")[0]
                if "." in alias.name:
                    add(alias.name, "import", alias)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if not _is_jax(node.module):
                continue
            if node.module != "jax":
                add(node.module, "from-module", node)
            for alias in node.names:
                if alias.name == "*":
                    continue
                bindings[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                add(f"{node.module}.{alias.name}", "from-import", alias)
    inner = {id(node.value) for node in nodes if isinstance(node, ast.Attribute)}
    for node in nodes:
        if not isinstance(node, ast.Attribute) or id(node) in inner:
            continue  # not an attribute, or not the outermost link of its chain
        chain = chain_of(node)
        if chain is None or chain[0] not in bindings:
            continue
        qualified = ".".join([bindings[chain[0]], *chain[1:]])
        add(qualified, "attribute", node)
    # Names imported with `from jax import tree_map` and used bare are found at the import.
    uses.sort(key=lambda u: (u.line, u.column))
    return FileUses(tuple(uses), bindings, lines, frozenset(guarded))


_VERSION_WORDS = ("hasattr", "getattr", "version", "__version__", "__version_info__")
_CAUGHT = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception"})


def _is_version_test(test: ast.expr) -> bool:
    text = ast.unparse(test)
    return any(word in text for word in _VERSION_WORDS)


def _catches_missing_names(node: ast.Try) -> bool:
    for handler in node.handlers:
        if handler.type is None:
            return True
        caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if any(isinstance(c, ast.Name) and c.id in _CAUGHT for c in caught):
            return True
    return False


def _guarded_nodes(nodes: list[ast.AST]) -> set[int]:
    """Ids of every node under a version test (either branch) or a try that catches
    ImportError/AttributeError."""
    out: set[int] = set()

    def mark(statements: list[ast.stmt]) -> None:
        for statement in statements:
            out.update(id(n) for n in ast.walk(statement))

    for node in nodes:
        if isinstance(node, ast.If | ast.IfExp) and _is_version_test(node.test):
            if isinstance(node, ast.If):
                mark(node.body)
                mark(node.orelse)
            else:
                out.update(id(n) for n in ast.walk(node))
        elif isinstance(node, ast.Try) and _catches_missing_names(node):
            mark(node.body)
    return out


def express(qualified: str, bindings: Mapping[str, str]) -> str | None:
    """Source text naming `qualified` with the file's own imports (`jax.numpy.vstack` with
    `jnp` bound -> `jnp.vstack`), the longest bound prefix first; None when nothing is bound."""
    best: tuple[int, str] | None = None
    for local, target in bindings.items():
        if qualified == target or qualified.startswith(target + "."):
            rest = qualified[len(target) :]
            if best is None or len(target) > best[0]:
                best = (len(target), local + rest)
    return best[1] if best else None
