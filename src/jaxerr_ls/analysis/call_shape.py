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

The whole file is read once (`call_table`: one parse, one walk) into a table of every call and
decorator a hover may land on, with what each ties to it; a hover then only looks its line up
(`CallTable.shape`). The server gets the table of a large file from its analysis worker, off the
interactive path (issue 20); the table is plain data, so it pickles.
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
# The family of an API's shape entries (a site stores each family's entries; the hover's API
# picks one).
JIT, GRAD, MAP, JNP = "jit", "grad", "map", "jnp"

# Past this many lines a hover says what the API raises without reading the call's shape: the
# parse alone would take seconds on a 120,000-line file, and the table hundreds of MB.
MAX_LINES = 20_000


@dataclass(frozen=True)
class CallShape:
    entry_ids: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()  # 0-based


@dataclass(frozen=True)
class Site:
    """A call (spanned by its callee) or a decorator a hover may land on, and what concerns it:
    line ranges, the calls of some names, the reads of some names after a line, and the shape's
    entries per family. Lines are 1-based here."""

    start: tuple[int, int]  # (line, column) of the callee, or of the decorator
    end: tuple[int, int]
    spans: tuple[tuple[int, int], ...] = ()  # first and last line of each
    called: tuple[str, ...] = ()
    read: tuple[str, ...] = ()
    after: int = 0  # the reads of `read` after this line
    ids: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (family, entry ids)

    def size(self) -> tuple[int, int]:
        return self.end[0] - self.start[0], self.end[1] - self.start[1]

    def covers(self, line: int, column: int) -> bool:
        return self.start <= (line, column) <= self.end


@dataclass(frozen=True)
class CallTable:
    """Every call and decorator of a text, by the lines they span (1-based)."""

    calls: dict[int, tuple[Site, ...]] = field(default_factory=dict)  # in the tree's walk order
    decorators: dict[int, tuple[Site, ...]] = field(default_factory=dict)
    called: dict[str, tuple[int, ...]] = field(default_factory=dict)  # name -> lines calling it
    reads: dict[str, tuple[int, ...]] = field(default_factory=dict)  # name -> lines reading it

    def site(self, line: int, column: int) -> Site | None:
        """The call whose callee is the smallest expression spanning the cursor (`jit` in
        `jit(f)(x)` is the inner call's); else the decorator spanning it (`@jax.jit`, and
        `@partial(jax.jit, …)` with the cursor on `jax.jit`). 1-based line."""
        best: Site | None = None
        for site in self.calls.get(line, ()):
            if site.covers(line, column) and (best is None or site.size() < best.size()):
                best = site
        if best is not None:
            return best
        return next((s for s in self.decorators.get(line, ()) if s.covers(line, column)), None)

    def shape(self, line: int, column: int, api: str) -> CallShape:
        """The shape of the call (or decorator) naming `api` at the 0-based `line`/`column`."""
        site = self.site(line + 1, column)
        if site is None:
            return CallShape()
        lines: set[int] = set()
        for first, last in site.spans:
            lines.update(range(first, last + 1))
        for name in site.called:
            lines.update(self.called.get(name, ()))
        for name in site.read:
            reads = self.reads.get(name, ())
            lines.update(reads[bisect_right(reads, site.after) :])
        lines.discard(line + 1)
        family = _family(api)
        ids = next((found for kind, found in site.ids if kind == family), ())
        return CallShape(ids, tuple(sorted(n - 1 for n in lines)))


def _family(api: str) -> str | None:
    if api in _JIT:
        return JIT
    if api in _MAPS:
        return MAP
    if api in _GRAD:
        return GRAD
    if api.startswith("jax.numpy.") and api.rsplit(".", 1)[-1] not in _SEQUENCES:
        return JNP
    return None


def call_shape(source: str, line: int, column: int, api: str) -> CallShape:
    """The shape of the call (or decorator) naming `api` at the 0-based `line`/`column`."""
    table = call_table(source)
    return CallShape() if table is None else table.shape(line, column, api)


@lru_cache(maxsize=4)
def call_table(source: str) -> CallTable | None:
    """The table of `source`; None when it does not parse or is over MAX_LINES lines."""
    if source.count("\n") > MAX_LINES:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    try:
        return _Reader(tree).table()
    except RecursionError:
        return None


Function = ast.FunctionDef | ast.AsyncFunctionDef


class _Reader:
    """One walk of the tree: parents, calls by the name they call, functions by name, reads."""

    def __init__(self, tree: ast.Module) -> None:
        self.parents: dict[ast.AST, ast.AST] = {}
        self.calls: list[ast.Call] = []
        self.functions: list[Function] = []
        self.calls_of: dict[str, list[ast.Call]] = {}
        self.function_named: dict[str, Function] = {}
        reads: dict[str, list[int]] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            if isinstance(node, ast.Call):
                self.calls.append(node)
                name = _called_name(node)
                if name is not None:
                    self.calls_of.setdefault(name, []).append(node)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions.append(node)
                self.function_named.setdefault(node.name, node)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                reads.setdefault(node.id, []).append(node.lineno)
        self.reads = {name: tuple(sorted(set(lines))) for name, lines in reads.items()}
        self.order = {call: i for i, call in enumerate(self.calls)}  # the walk's

    def table(self) -> CallTable:
        calls: dict[int, list[Site]] = {}
        for call in self.calls:
            _place(calls, self._site(call.func, call))
        decorators: dict[int, list[Site]] = {}
        for function in self.functions:
            for deco in function.decorator_list:
                _place(decorators, self._site(deco, deco if isinstance(deco, ast.Call) else None))
        called = {
            name: tuple(sorted({c.lineno for c in found})) for name, found in self.calls_of.items()
        }
        return CallTable(_frozen(calls), _frozen(decorators), called, self.reads)

    def _site(self, span: ast.expr, call: ast.Call | None) -> Site:
        """`span`: the callee (a call's) or the decorator; `call`: the call the hover reads."""
        target: ast.expr = call if call is not None else span
        spans: list[tuple[int, int]] = []
        called: list[str] = []
        read: tuple[str, ...] = ()
        after = 0
        decorated = self._decorated(target)
        if decorated is not None:
            spans.append(_lines(decorated))
            called.append(decorated.name)
        if call is not None:
            for arg in (*call.args, *(k.value for k in call.keywords)):
                body = self._function_of(arg)
                if body is not None:
                    spans.append(_lines(body))
            stmt = self._statement(call)
            if isinstance(stmt, ast.Assign | ast.AnnAssign):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
                read, after = tuple(sorted(names)), stmt.lineno
            elif isinstance(stmt, ast.Return):
                scope = self._enclosing_function(stmt)
                if scope is not None:
                    called.append(scope.name)
        ids = self._ids(target, decorated, call)
        return Site(
            (span.lineno, span.col_offset),
            (span.end_lineno or span.lineno, span.end_col_offset or 0),
            tuple(spans),
            tuple(dict.fromkeys(called)),
            read,
            after,
            ids,
        )

    def _decorated(self, target: ast.expr) -> Function | None:
        node: ast.AST = target
        while node in self.parents:
            parent = self.parents[node]
            if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
                return parent if node in parent.decorator_list else None
            if not isinstance(parent, ast.Call | ast.expr):
                return None
            node = parent
        return None

    def _function_of(self, arg: ast.expr) -> ast.AST | None:
        if isinstance(arg, ast.Lambda):
            return arg
        if isinstance(arg, ast.Name):
            return self.function_named.get(arg.id)
        return None

    def _statement(self, node: ast.AST) -> ast.AST:
        while node in self.parents and not isinstance(node, ast.stmt):
            node = self.parents[node]
        return node

    def _enclosing_function(self, node: ast.AST) -> Function | None:
        while node in self.parents and not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            node = self.parents[node]
        return node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None

    def _ids(
        self, target: ast.expr, decorated: Function | None, call: ast.Call | None
    ) -> tuple[tuple[str, tuple[str, ...]], ...]:
        out = [(JIT, self._jit_ids(target, decorated))]
        if call is not None:
            if any(k.arg == "in_axes" and isinstance(k.value, ast.Dict) for k in call.keywords):
                out.append((MAP, ("vmap-in-axes-invalid",)))
            outer = self.parents.get(call)
            if (
                isinstance(outer, ast.Call)
                and outer.func is call
                and any(_int_literal(a) for a in outer.args)
            ):
                out.append((GRAD, ("grad-integer-input",)))
            if any(isinstance(a, ast.List) for a in call.args):
                out.append((JNP, ("jnp-list-argument",)))
        return tuple((kind, ids) for kind, ids in out if ids)

    def _jit_ids(self, target: ast.expr, decorated: Function | None) -> tuple[str, ...]:
        ids: list[str] = []
        config = _jit_call(target) if decorated is None else self._decorator_call(target)
        nums, names = _statics(config)
        uses: Sequence[ast.Call]
        if decorated is not None:
            params = [a.arg for a in decorated.args.args]
            if params and params[0] in ("self", "cls") and 0 not in nums:
                ids.append("jit-method-self")
            uses = self.calls_of.get(decorated.name, ())
            offset = 1 if params and params[0] in ("self", "cls") else 0
        else:
            params, uses, offset = [], self._uses_of_result(target), 0
        nums |= {i for i, p in enumerate(params) if p in names}
        for use in uses:
            for i, arg in enumerate(use.args):
                static = (i + offset) in nums
                if static and isinstance(arg, ast.List | ast.Dict | ast.Set):
                    ids.append("static-arg-unhashable-container")
                if not static and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    ids.append("jit-argument-invalid-type")
        return tuple(dict.fromkeys(ids))

    def _decorator_call(self, target: ast.expr) -> ast.Call | None:
        """For `@partial(jit, static_argnums=…)` with the cursor on `jit`: the partial call."""
        parent = self.parents.get(target)
        return parent if isinstance(parent, ast.Call) else _jit_call(target)

    def _uses_of_result(self, target: ast.expr) -> list[ast.Call]:
        """The calls of what `jit(f, …)` returned: `jit(f)(x)`, or `g(x)` after `g = jit(f)`."""
        outer = self.parents.get(target)
        if isinstance(outer, ast.Call) and outer.func is target:
            return [outer]
        stmt = self._statement(target)
        if isinstance(stmt, ast.Assign) and stmt.value is target:
            names = {t.id for t in stmt.targets if isinstance(t, ast.Name)}
            found = (c for name in names for c in self.calls_of.get(name, ()))
            named = (c for c in found if isinstance(c.func, ast.Name))
            return sorted(named, key=lambda c: self.order[c])
        return []


def _place(by_line: dict[int, list[Site]], site: Site) -> None:
    for line in range(site.start[0], site.end[0] + 1):
        by_line.setdefault(line, []).append(site)


def _frozen(by_line: dict[int, list[Site]]) -> dict[int, tuple[Site, ...]]:
    return {line: tuple(sites) for line, sites in by_line.items()}


def _lines(node: ast.AST) -> tuple[int, int]:
    first: int = node.lineno  # type: ignore[attr-defined]
    last: int | None = node.end_lineno  # type: ignore[attr-defined]
    return first, last or first


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _statics(call: ast.Call | None) -> tuple[set[int], set[str]]:
    nums: set[int] = set()
    names: set[str] = set()
    for keyword in call.keywords if call is not None else ():
        if keyword.arg not in ("static_argnums", "static_argnames"):
            continue
        value = _literal(keyword.value)
        items: Iterable[object] = value if isinstance(value, tuple | list) else (value,)
        if keyword.arg == "static_argnums":
            nums |= {i for i in items if isinstance(i, int)}
        else:
            names |= {i for i in items if isinstance(i, str)}
    return nums, names


def _jit_call(target: ast.expr) -> ast.Call | None:
    """The call that configures jit: `jit(f, static_...)` or `partial(jit, static_...)`."""
    return target if isinstance(target, ast.Call) else None


def _int_literal(node: ast.expr) -> bool:
    value = _literal(node)
    return isinstance(value, int) and not isinstance(value, bool)
