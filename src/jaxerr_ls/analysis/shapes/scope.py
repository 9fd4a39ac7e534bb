"""What a file's scopes say about a name: whether a list or dict may change in place
(`_mutated`), what a call calls (`_callee`), which module names are bound once
(`_single_bindings`), and the names a statement binds (`assigned`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from jaxerr_ls.analysis.build import Model

_MUTATORS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem"}
    | {"sort", "reverse", "__setitem__", "__delitem__"}
)


_READERS = frozenset(
    {"print", "len", "str", "repr", "isinstance", "type", "tuple", "list", "dict", "sorted"}
    | {"sum", "min", "max", "range", "enumerate", "zip", "float", "int", "bool", "any", "all"}
    | {"iter", "next", "hash", "id", "format"}
)


def _callee(model: Model, call: ast.Call) -> ast.AST | str | None:  # noqa: PLR0911
    """What a call calls: a function of this file (also through `jax.jit(f)`, `g = jax.vmap(f)`),
    "jax" for JAX's and NumPy's own, None when not known."""
    func: ast.expr = call.func
    if isinstance(func, ast.Name):
        function = model.scopes.lookup(func.id, call)
        if function is not None:
            return function
        value = model._assigned_before(func)  # noqa: SLF001 - the model's own reading
        if isinstance(value, ast.Call):
            func = value
        elif func.id in _READERS:
            return "jax"
    if isinstance(func, ast.Call) and (model.qualify(func.func) or "").startswith("jax."):
        inner = func.args[0] if func.args else None
        if isinstance(inner, ast.Name):
            return model.scopes.lookup(inner.id, call)
        return (
            "jax" if inner is not None and (model.qualify(inner) or "").startswith("jax.") else None
        )
    qualified = model.qualify(func) if not isinstance(func, ast.Call) else None
    return "jax" if (qualified or "").startswith(("jax.", "numpy.")) else None


def _mutated(model: Model, name: str, seen: set[str]) -> bool:
    """Whether a list or dict named `name` may change in place: a mutating method called on it,
    an item assigned or deleted, or passed to a call that is not JAX's (nor a builtin that only
    reads, nor a function of this file that does not change that parameter)."""
    if name in seen:
        return False  # being checked further up: its other uses decide
    seen.add(name)
    for method in _MUTATORS:
        for call in model.calls_by_attr.get(method, []):
            target = call.func.value if isinstance(call.func, ast.Attribute) else None
            if isinstance(target, ast.Name) and target.id == name:
                return True
    for node in model.nodes:
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            changed: ast.expr = node.value
        elif isinstance(node, ast.AugAssign):
            changed = node.target
        else:
            continue
        if isinstance(changed, ast.Name) and changed.id == name:
            return True
    for call in model.calls:
        positions = [k for k, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id == name]
        keywords = [
            k.arg for k in call.keywords if isinstance(k.value, ast.Name) and k.value.id == name
        ]
        if not positions and not keywords:
            continue
        callee = _callee(model, call)
        if callee == "jax":
            continue
        if not isinstance(callee, ast.FunctionDef) or None in keywords:
            return True
        names = [a.arg for a in [*callee.args.posonlyargs, *callee.args.args]]
        for parameter in [*(names[k] if k < len(names) else None for k in positions), *keywords]:
            if parameter is None or _mutated(model, parameter, seen):
                return True
    return False


def assigned(node: ast.AST) -> set[str]:
    """Every name a statement (and what it contains, not nested scopes) may bind."""
    found: set[str] = set()
    for part in _walk(node):
        if isinstance(part, ast.Name) and isinstance(part.ctx, ast.Store | ast.Del):
            found.add(part.id)
        elif isinstance(part, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(part.name)
        elif isinstance(part, ast.Global | ast.Nonlocal):
            found.update(part.names)
        elif (
            isinstance(part, ast.ExceptHandler)
            and part.name
            or isinstance(part, ast.MatchAs | ast.MatchStar)
            and part.name
        ):
            found.add(part.name)
    return found


def _imported(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    return set()


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    yield node
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
        return
    for child in ast.iter_child_nodes(node):
        yield from _walk(child)


def _single_bindings(model: Model) -> set[str]:
    """Module names bound by exactly one module-level statement and never declared global."""
    counts: dict[str, int] = {}
    for statement in model.tree.body:
        for name in assigned(statement) | _imported(statement):
            counts[name] = counts.get(name, 0) + 1
    declared: set[str] = set()
    for node in model.nodes:
        if isinstance(node, ast.Global):
            declared.update(node.names)
    return {n for n, c in counts.items() if c == 1 and n not in declared}
