"""A file's top-level statements as units of analysis, and which units must be analysed together.

The tracing model and the rules cross from one top-level statement to another only through
names (checked against every read of `build`, `tracing` and the rules):

- a name read in the module scope (`Scopes.lookup`, the module's `assignments`): what another
  unit binds at module level (`jax.jit(f)` makes `f` traced; `f(x)` from a traced function too);
- a name or attribute read anywhere: a top-level function's name (`axis-names` asks whether it is
  passed anywhere), a jit alias (`g = jax.jit(f)`: every `g(...)` / `x.g(...)` is a call site),
  a method's name (`obj.method(...)` is a call site of a jitted method);
- the file's imports (`scan_imports` over the whole text, `collect_uses` over every import).

So a unit is analysed with the units it shares such a name with (transitively: a component),
with the file's import statements (shared by every component) and with the file's bindings; its
findings are then those of the whole file. A unit holding an import of its own (a local import)
changes the bindings of every other unit: such a file is analysed whole.

Pure: no LSP, no I/O.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from jaxerr_ls.analysis.names import qualify
from jaxerr_ls.analysis.tracing import JIT_LIKE
from jaxerr_ls.resolve import scan_imports

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


@dataclass(frozen=True)
class Unit:
    """Top-level statements sharing no line with others: lines `first`..`last` (0-based)."""

    first: int
    last: int
    text: str  # its lines, ending with a line break
    nodes: tuple[ast.stmt, ...]


@dataclass(frozen=True)
class Interface:
    """What a unit offers to and reads from the rest of the file."""

    shared: bool  # import statements (maybe under try/if): read with every other unit
    local_import: bool  # an import that is not shared: the file cannot be split
    binds: frozenset[str]  # names bound at module level
    exports: frozenset[str]  # names others reach wherever they say them: top-level defs, aliases
    members: frozenset[str]  # names others reach as `x.name`: methods, jit aliases
    free: frozenset[str]  # names it reads from the module scope
    names: frozenset[str]  # every name it says
    attributes: frozenset[str]  # every attribute it says


def split_units(tree: ast.Module, lines: Sequence[str]) -> list[Unit]:
    """The module's statements grouped into units (`a = 1; b = 2` is one); `lines` keep their
    line breaks and are numbered as `ast` numbers them."""
    spans: list[tuple[int, int, list[ast.stmt]]] = []
    for statement in tree.body:
        decorators = getattr(statement, "decorator_list", [])
        first = min([statement.lineno, *(d.lineno for d in decorators)]) - 1
        last = (statement.end_lineno or statement.lineno) - 1
        if spans and first <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(last, spans[-1][1]), [*spans[-1][2], statement])
        else:
            spans.append((first, last, [statement]))
    units = []
    for first, last, statements in spans:
        text = "".join(lines[first : last + 1])
        if not text.endswith(("\n", "\r")):
            text += "\n"
        units.append(Unit(first, last, text, tuple(statements)))
    return units


def _simple(statement: ast.stmt) -> bool:
    """A statement of an import block: an import, `pass`, a constant, `x = <name or constant>`,
    `raise E("...")`."""
    if isinstance(statement, ast.Import | ast.ImportFrom | ast.Pass):
        return True
    if isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant)
    if isinstance(statement, ast.Assign):
        return all(isinstance(t, ast.Name) for t in statement.targets) and isinstance(
            statement.value, ast.Constant | ast.Name | ast.Attribute
        )
    if isinstance(statement, ast.Raise):
        exc = statement.exc
        if isinstance(exc, ast.Call):
            return isinstance(exc.func, ast.Name) and all(
                isinstance(a, ast.Constant) for a in exc.args
            )
        return exc is None or isinstance(exc, ast.Name)
    return False


def _import_block(statement: ast.stmt) -> bool:
    """`import x`, or a try/if holding only imports and simple statements (`try: import wandb
    except ImportError: wandb = None`), with no call outside a `raise`."""
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return True
    if not isinstance(statement, ast.Try | ast.If):
        return False
    statements = [n for n in ast.walk(statement) if isinstance(n, ast.stmt) and n is not statement]
    if not all(_simple(s) or isinstance(s, ast.Try | ast.If) for s in statements):
        return False
    raised = {id(n) for s in statements if isinstance(s, ast.Raise) for n in ast.walk(s)}
    return not any(
        isinstance(n, ast.Call | ast.Lambda | ast.NamedExpr) and id(n) not in raised
        for n in ast.walk(statement)
    )


def interface(unit: Unit, bindings: Mapping[str, str]) -> Interface:
    """The names through which `unit` and the rest of the file can see each other."""
    shared = all(_import_block(s) for s in unit.nodes)
    binds: set[str] = set()
    exports: set[str] = set()
    members: set[str] = set()
    free: set[str] = set()
    names: set[str] = set()
    attributes: set[str] = set()
    local_import = False
    # (node, the bound names of its enclosing function scopes, inside a function, parent)
    stack: list[tuple[ast.AST, tuple[frozenset[str], ...], bool, ast.AST | None]] = [
        (s, (), False, None) for s in unit.nodes
    ]
    while stack:
        node, chain, inside, parent = stack.pop()
        if isinstance(node, ast.Name):
            names.add(node.id)
            if not any(node.id in bound for bound in chain):
                free.add(node.id)
            if not inside and not isinstance(node.ctx, ast.Load):
                binds.add(node.id)
        elif isinstance(node, ast.Attribute):
            attributes.add(node.attr)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            local_import = local_import or not shared
            if not inside:
                binds.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name and not inside:
            binds.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            binds.update(node.names)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            _alias(node, bindings, exports, members)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if not inside:
                binds.add(node.name)
                exports.add(node.name)
            if isinstance(parent, ast.ClassDef):
                members.add(node.name)
        inner = chain
        if isinstance(node, _SCOPES):
            inner = (*chain, _surely_bound(node))
        below = inside or isinstance(node, _SCOPES)
        stack.extend((child, inner, below, node) for child in ast.iter_child_nodes(node))
    return Interface(
        shared,
        local_import,
        frozenset(binds),
        frozenset(exports),
        frozenset(members),
        frozenset(free),
        frozenset(names),
        frozenset(attributes),
    )


def _surely_bound(scope: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    """Names the scope certainly binds (its parameters, and the defs, classes and `name = ...` of
    its own body): a subset of what `Scopes.lookup` finds bound there, so a name said in the
    scope and not in here is taken as read from the module (at worst one link too many)."""
    args = scope.args
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for statement in [] if isinstance(scope, ast.Lambda) else scope.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Assign):
            value = statement.value
            for target in statement.targets:
                wraps = isinstance(value, ast.Call) and any(
                    isinstance(a, ast.Name) and isinstance(target, ast.Name) and a.id == target.id
                    for a in value.args
                )
                if isinstance(target, ast.Name) and not wraps:  # `f = jax.jit(f)` keeps f free
                    names.add(target.id)
    return frozenset(names)


def _alias(
    node: ast.Assign, bindings: Mapping[str, str], exports: set[str], members: set[str]
) -> None:
    """`g = jax.jit(f)` / `self.g = jax.jit(f)`: every call of `g` anywhere is a call site."""
    value, target = node.value, node.targets[0]
    if not isinstance(value, ast.Call) or qualify(value.func, bindings) not in JIT_LIKE:
        return
    if isinstance(target, ast.Name):
        exports.add(target.id)
        members.add(target.id)
    elif isinstance(target, ast.Attribute):
        members.add(target.attr)


def components(interfaces: Sequence[Interface]) -> list[list[int]]:
    """The non-shared units (by index) grouped so that no name links two groups; each group in
    file order, groups by their first unit."""
    parent = list(range(len(interfaces)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def join(a: int, b: int) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    split = [k for k, i in enumerate(interfaces) if not i.shared]
    binders: dict[str, int] = {}
    exporters: dict[str, int] = {}
    owners: dict[str, int] = {}
    for k in split:
        for index, found in (
            (binders, interfaces[k].binds),
            (exporters, interfaces[k].exports),
            (owners, interfaces[k].members),
        ):
            for name in found:
                other = index.setdefault(name, k)
                if other != k:
                    join(other, k)  # one group per name offered (all its binders together)
    for k in split:
        face = interfaces[k]
        for index, said in (
            (binders, face.free),
            (exporters, face.names),
            (owners, face.attributes),
        ):
            for name in said:
                offered = index.get(name)
                if offered is not None:
                    join(offered, k)
    groups: dict[int, list[int]] = {}
    for k in split:
        groups.setdefault(root(k), []).append(k)
    return [groups[k] for k in sorted(groups)]


# Characters `str.splitlines` breaks at and `ast` does not: units' line numbers would differ.
_ODD_BREAKS = re.compile("[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


@dataclass(frozen=True)
class View:
    """A file as one line's component sees it: the text with every line of the units outside
    that component (and outside the shared imports) made blank, so lines and columns stay the
    file's. Read through names only, it is the file (the analysis of a component with the
    imports is the whole file's, for the component's units), at a fraction of the cost."""

    text: str
    outside: frozenset[str]  # every name and attribute the blanked units say, bind or offer


@lru_cache(maxsize=4)
def _split(source: str) -> tuple[list[str], list[Unit], list[Interface], list[list[int]]] | None:
    if _ODD_BREAKS.search(source):
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    lines = source.splitlines(keepends=True)
    units = split_units(tree, lines)
    bindings = scan_imports(source)
    faces = [interface(unit, bindings) for unit in units]
    if any(face.local_import for face in faces):
        return None  # an import of its own changes every unit's bindings: not split
    return lines, units, faces, components(faces)


def view_of_line(source: str, line: int) -> View | None:
    """The view of `source` from 0-based `line`'s component; None when the file does not parse,
    cannot be split (a local import, odd line breaks) or the line is in no unit (a comment or a
    blank line between statements) or in the shared imports."""
    split = _split(source)
    if split is None:
        return None
    lines, units, faces, groups = split
    unit = next((k for k, u in enumerate(units) if u.first <= line <= u.last), None)
    group = next((g for g in groups if unit in g), None)
    if group is None:
        return None
    kept = set(group)
    out = list(lines)
    outside: set[str] = set()
    for k, (u, face) in enumerate(zip(units, faces, strict=True)):
        if face.shared or k in kept:
            continue
        outside |= face.names | face.attributes | face.binds | face.exports | face.members
        for number in range(u.first, min(u.last + 1, len(out))):
            text = out[number]
            out[number] = text[len(text.rstrip("\r\n")) :]
    return View("".join(out), frozenset(outside))
