"""What the shape of a call says about the errors it risks, read from the code (issue 19).

For the API call under the cursor, two things a hover needs:
- `lines`: the other lines whose diagnostics concern this call. A transform's errors surface where
  the function it wraps runs: the body of a decorated function, or of a function passed to the
  call (`jax.grad(f)`, `lax.cond(p, f, g, x)`), and the calls of a decorated function
  (`f(x, [1])`, `a.f(5)`). A result kept in a name surfaces where the name is read
  (`count = jnp.add(n, 1)` then `jnp.ones((count,))`; `g = jax.jit(f)` then `g(x)`), and a result
  returned surfaces where the function is called.
- `entry_ids`: catalog entries the shape itself points at, with no traceback: a jitted method
  (`jit-method-self`), a static argument given a list (`static-arg-unhashable-container`), a jitted
  function called with a string (`jit-argument-invalid-type`), `in_axes` given as a dict
  (`vmap-in-axes-invalid`), a list literal passed to a jax.numpy function (`jnp-list-argument`),
  an int literal differentiated (`grad-integer-input`).

Names are compared as written after the hover resolved the API (`jit`, `jax.jit`, `partial(jit, …)`
all reach here as `jax.jit`), so aliases need nothing more.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

_JIT = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})
_GRAD = frozenset(
    {"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian"}
)
_MAPS = frozenset({"jax.vmap", "jax.pmap"})
_SEQUENCES = frozenset(
    {"array", "asarray", "stack", "vstack", "hstack", "dstack", "column_stack", "concatenate"}
    | {"concat", "block", "zeros", "ones", "empty", "full", "einsum", "select", "piecewise"}
    | {"meshgrid", "broadcast_shapes", "result_type", "atleast_1d", "atleast_2d", "atleast_3d"}
)


@dataclass(frozen=True)
class CallShape:
    entry_ids: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()  # 0-based


# Past this many lines a hover says what the API raises without reading the call's shape: the
# parse alone would hold the hover up (seconds on a 120,000-line file).
MAX_LINES = 20_000


def call_shape(source: str, line: int, column: int, api: str) -> CallShape:
    """The shape of the call (or decorator) naming `api` at the 0-based `line`/`column`."""
    if source.count("\n", 0, len(source)) > MAX_LINES:
        return CallShape()
    parsed = _parsed(source)
    if parsed is None:
        return CallShape()
    tree, parents = parsed
    target = _target(tree, line + 1, column)
    if target is None:
        return CallShape()
    lines: set[int] = set()
    ids: list[str] = []
    decorated = _decorated(target, parents)
    call = target if isinstance(target, ast.Call) else None
    if decorated is not None:
        lines |= _span(decorated)
        lines |= _call_lines(tree, decorated.name)
    if call is not None:
        for arg in (*call.args, *(k.value for k in call.keywords)):
            body = _function_of(tree, arg)
            if body is not None:
                lines |= _span(body)
        lines |= _result_lines(tree, call, parents)
    ids += _shape_ids(tree, target, decorated, call, api, parents)
    lines.discard(line + 1)
    return CallShape(tuple(dict.fromkeys(ids)), tuple(sorted(n - 1 for n in lines)))


@lru_cache(maxsize=2)  # a tree weighs several times its text: the file hovered, and one more
def _parsed(source: str) -> tuple[ast.Module, dict[ast.AST, ast.AST]] | None:
    """The tree and each node's parent, kept for the next hovers on the same text."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return tree, {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _target(tree: ast.Module, line: int, column: int) -> ast.expr | None:
    """The call whose callee is the smallest expression spanning the cursor (`jit` in
    `jit(f)(x)` is the inner call's); else the decorator spanning it (`@jax.jit`, and
    `@partial(jax.jit, …)` with the cursor on `jax.jit`)."""
    best: ast.Call | None = None
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and _covers(node.func, line, column)
            and (best is None or _size(node.func) < _size(best.func))
        ):
            best = node
    if best is not None:
        return best
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for deco in node.decorator_list:
                if _covers(deco, line, column):
                    return deco
    return None


def _covers(node: ast.AST, line: int, column: int) -> bool:
    start = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
    end = (node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
    return start <= (line, column) <= end


def _size(node: ast.AST) -> tuple[int, int]:
    lines = (node.end_lineno or node.lineno) - node.lineno  # type: ignore[attr-defined]
    return lines, (node.end_col_offset or 0) - node.col_offset  # type: ignore[attr-defined]


def _span(node: ast.AST) -> set[int]:
    return set(range(node.lineno, (node.end_lineno or node.lineno) + 1))  # type: ignore[attr-defined]


def _decorated(
    target: ast.expr, parents: dict[ast.AST, ast.AST]
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    node: ast.AST = target
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
            return parent if node in parent.decorator_list else None
        if not isinstance(parent, ast.Call | ast.expr):
            return None
        node = parent
    return None


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _function_of(tree: ast.Module, arg: ast.expr) -> ast.AST | None:
    if isinstance(arg, ast.Lambda):
        return arg
    if isinstance(arg, ast.Name):
        return next((f for f in _functions(tree) if f.name == arg.id), None)
    return None


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _calls_of(tree: ast.Module, name: str) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called_name(node) == name:
            yield node


def _call_lines(tree: ast.Module, name: str) -> set[int]:
    return {call.lineno for call in _calls_of(tree, name)}


def _statement(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.AST:
    while node in parents and not isinstance(node, ast.stmt):
        node = parents[node]
    return node


def _result_lines(tree: ast.Module, call: ast.Call, parents: dict[ast.AST, ast.AST]) -> set[int]:
    """Where the call's result is used: a name it is assigned to read later, or the calls of the
    function that returns it."""
    stmt = _statement(call, parents)
    lines: set[int] = set()
    if isinstance(stmt, ast.Assign | ast.AnnAssign):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Load)
                and node.id in names
                and node.lineno > stmt.lineno
            ):
                lines.add(node.lineno)
    elif isinstance(stmt, ast.Return):
        scope: ast.AST = stmt
        while scope in parents and not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            scope = parents[scope]
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            lines |= _call_lines(tree, scope.name)
    return lines


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _statics(call: ast.Call | None) -> tuple[set[int], set[str]]:
    nums: set[int] = set()
    names: set[str] = set()
    for keyword in call.keywords if call is not None else ():
        value = _literal(keyword.value)
        items = value if isinstance(value, tuple | list) else (value,)
        if keyword.arg == "static_argnums":
            nums |= {i for i in items if isinstance(i, int)}
        elif keyword.arg == "static_argnames":
            names |= {i for i in items if isinstance(i, str)}
    return nums, names


def _jit_call(target: ast.expr) -> ast.Call | None:
    """The call that configures jit: `jit(f, static_...)` or `partial(jit, static_...)`."""
    return target if isinstance(target, ast.Call) else None


def _shape_ids(
    tree: ast.Module,
    target: ast.expr,
    decorated: ast.FunctionDef | ast.AsyncFunctionDef | None,
    call: ast.Call | None,
    api: str,
    parents: dict[ast.AST, ast.AST],
) -> list[str]:
    ids: list[str] = []
    if api in _JIT:
        config = _jit_call(target) if decorated is None else _decorator_call(target, parents)
        nums, names = _statics(config)
        if decorated is not None:
            params = [a.arg for a in decorated.args.args]
            if params and params[0] in ("self", "cls") and 0 not in nums:
                ids.append("jit-method-self")
            calls = list(_calls_of(tree, decorated.name))
            offset = 1 if params and params[0] in ("self", "cls") else 0
        else:
            params, calls, offset = [], _uses_of_result(tree, target, parents), 0
        nums |= {i for i, p in enumerate(params) if p in names}
        for use in calls:
            for i, arg in enumerate(use.args):
                static = (i + offset) in nums
                if static and isinstance(arg, ast.List | ast.Dict | ast.Set):
                    ids.append("static-arg-unhashable-container")
                if not static and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    ids.append("jit-argument-invalid-type")
    elif api in _MAPS and call is not None:
        if any(k.arg == "in_axes" and isinstance(k.value, ast.Dict) for k in call.keywords):
            ids.append("vmap-in-axes-invalid")
    elif api in _GRAD and call is not None:
        outer = parents.get(call)
        if (
            isinstance(outer, ast.Call)
            and outer.func is call
            and any(_int_literal(a) for a in outer.args)
        ):
            ids.append("grad-integer-input")
    elif (
        api.startswith("jax.numpy.")
        and call is not None
        and api.rsplit(".", 1)[-1] not in _SEQUENCES
        and any(isinstance(a, ast.List) for a in call.args)
    ):
        ids.append("jnp-list-argument")
    return ids


def _int_literal(node: ast.expr) -> bool:
    value = _literal(node)
    return isinstance(value, int) and not isinstance(value, bool)


def _decorator_call(target: ast.expr, parents: dict[ast.AST, ast.AST]) -> ast.Call | None:
    """For `@partial(jit, static_argnums=…)` with the cursor on `jit`: the partial call."""
    parent = parents.get(target)
    return parent if isinstance(parent, ast.Call) else _jit_call(target)


def _uses_of_result(
    tree: ast.Module, target: ast.expr, parents: dict[ast.AST, ast.AST]
) -> list[ast.Call]:
    """The calls of what `jit(f, …)` returned: `jit(f)(x)`, or `g(x)` after `g = jit(f)`."""
    outer = parents.get(target)
    if isinstance(outer, ast.Call) and outer.func is target:
        return [outer]
    stmt = _statement(target, parents)
    if isinstance(stmt, ast.Assign) and stmt.value is target:
        names = {t.id for t in stmt.targets if isinstance(t, ast.Name)}
        return [c for c in ast.walk(tree) if isinstance(c, ast.Call) and _name(c) in names]
    return []


def _name(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else None
