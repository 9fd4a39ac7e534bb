"""One module's public names and deprecation table, read statically from its source.

JAX is never imported: the names are what the module's top level binds (re-exports, assignments,
definitions, minus `del`), and `_deprecations = {"name": ("message", value_or_None)}` is JAX's own
table, whose `None` values are names already removed (JAX keeps them only to say so).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Deprecation:
    message: str
    removed: bool  # True: JAX's table maps the name to None (an AttributeError says the message)
    value: str = ""  # what the table maps a still-working name to, as source ("vstack")


@dataclass
class ModuleScan:
    names: set[str] = field(default_factory=set)
    deprecations: dict[str, Deprecation] = field(default_factory=dict)
    # A star import from a non-JAX module (e.g. jaxlib's MLIR bindings): names unknowable.
    open: bool = False
    # The module's own deprecation warning, issued on import ("" when it has none).
    warning: str = ""
    strings: dict[str, str] = field(default_factory=dict)  # top-level NAME = "text" constants
    # Star imports from the package's own modules, as written: (module, level). Their names are
    # the imported module's, known once every module of the release is read (`build.scan_wheel`):
    # Orbax's `from orbax.checkpoint.checkpointers import *` gives `orbax.checkpoint.Checkpointer`.
    stars: list[tuple[str, int]] = field(default_factory=list)


def _is_type_checking(test: ast.expr) -> int:
    """1 for `if TYPE_CHECKING`, -1 for `if not TYPE_CHECKING`, 0 otherwise."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return -_is_type_checking(test.operand)
    if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
        return 1
    if isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING":
        return 1
    return 0


# The packages whose re-exports count without `as` (JAX's; a library's own, see build.py).
JAX_PACKAGES = ("jax", "jaxlib")


def _from_jax(module: str | None, level: int, own: tuple[str, ...] = JAX_PACKAGES) -> bool:
    return level > 0 or (module or "").split(".")[0] in own


def _deprecation_table(table_node: ast.expr) -> dict[str, Deprecation]:
    table: dict[str, Deprecation] = {}
    if not isinstance(table_node, ast.Dict):
        return table
    for key, item in zip(table_node.keys, table_node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue
        if not (isinstance(item, ast.Tuple) and len(item.elts) == 2):
            continue
        message, target = item.elts
        text = message.value if isinstance(message, ast.Constant) else None
        if not isinstance(text, str):
            continue
        removed = isinstance(target, ast.Constant) and target.value is None
        table[key.value] = Deprecation(
            " ".join(text.split()), removed, "" if removed else ast.unparse(target)
        )
    return table


def _text(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return " ".join(node.value.split())
    return None


def _warning(scan: ModuleScan, call: ast.Call) -> None:
    """`warnings.warn("... deprecated ...")` at module level: the module's own deprecation."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name != "warn" or not call.args or scan.warning:
        return
    first = call.args[0]
    text = scan.strings.get(first.id) if isinstance(first, ast.Name) else _text(first)
    if text and "deprecat" in text.lower():
        scan.warning = text


def _bind(scan: ModuleScan, name: str) -> None:
    if not name.startswith("_"):
        scan.names.add(name)


def _statements(
    scan: ModuleScan, body: list[ast.stmt], own: tuple[str, ...] = JAX_PACKAGES
) -> None:
    for node in body:
        if isinstance(node, ast.If):
            checking = _is_type_checking(node.test)
            # Names bound only for type checkers are the deprecated ones: the table tells.
            if checking != 1:
                _statements(scan, node.body, own)
            if checking != -1:
                _statements(scan, node.orelse, own)
        elif isinstance(node, ast.Try):
            _statements(scan, node.body, own)
            for handler in node.handlers:
                _statements(scan, handler.body, own)
            _statements(scan, node.orelse, own)
            _statements(scan, node.finalbody, own)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    scan.open = scan.open or not _from_jax(node.module, node.level, own)
                    if _from_jax(node.module, node.level, own):
                        scan.stars.append((node.module or "", node.level))
                elif _from_jax(node.module, node.level, own) or alias.asname == alias.name:
                    _bind(scan, alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and (
                    alias.name.split(".")[0] in own[:1] or alias.asname == alias.name
                ):
                    _bind(scan, alias.asname)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            _bind(scan, node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    if target.id == "_deprecations":
                        scan.deprecations.update(_deprecation_table(node.value))
                    _bind(scan, target.id)
                    text = _text(node.value)
                    if text is not None:
                        scan.strings[target.id] = text
                elif isinstance(target, ast.Tuple):
                    for element in target.elts:
                        if isinstance(element, ast.Name):
                            _bind(scan, element.id)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            _warning(scan, node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            _bind(scan, node.target.id)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    scan.names.discard(target.id)


def scan_module(text: str, own: tuple[str, ...] = JAX_PACKAGES) -> ModuleScan:
    """Public names and deprecation table of one module's source; bad source scans empty.
    `own`: the packages (JAX's, or a library's) whose names a plain `from ... import` re-exports."""
    scan = ModuleScan()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return scan
    _statements(scan, tree.body, own)
    return scan
