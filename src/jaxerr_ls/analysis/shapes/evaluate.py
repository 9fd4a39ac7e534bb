"""The abstract interpreter: statements in order, values as the code states them (`avals`),
every JAX call whose arguments are all known asked of the oracle. An answer that is an error is
an `Event` (where, what JAX raises); an answer that is a value flows on.

Evaluated in rounds: a round walks the file, asking what it cannot answer from what it has;
the questions of a round go to the oracle as one batch; the next round reads the answers, until
nothing new is asked. Same-file functions are evaluated per call (their arguments' values),
jit/vmap/grad bodies with the values those transforms pass in, scan/fori_loop/while_loop bodies
with their carries and cond/switch branches with their operands.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from jaxerr_ls.analysis.build import Model
from jaxerr_ls.analysis.shapes.avals import (
    Arr,
    Dict,
    FunctionNode,
    Py,
    Seq,
    Val,
    Wrap,
    annotation_value,
    assumed,
    concrete_array,
    from_spec,
    mark,
    spec,
    traced,
)
from jaxerr_ls.analysis.shapes.calls import Calls
from jaxerr_ls.analysis.shapes.expressions import Expressions, Frame, bind
from jaxerr_ls.analysis.shapes.oracle import Oracle, Query, Result, key_of
from jaxerr_ls.analysis.shapes.scope import _imported, _mutated, _single_bindings, assigned

_ROUNDS = 10
_TRY = (ast.Try, getattr(ast, "TryStar", ast.Try))


@dataclass(frozen=True)
class Event:
    """JAX raises `exception: message` at `node` (the line the traceback names)."""

    node: ast.AST
    exception: str
    message: str
    assumed: bool  # a dtype stood in for one the code did not state
    kind: str  # the query's kind: "call" "binop" "scan" "cond" "vmap" "grad"...
    api: str  # what was called, as the query names it
    arrays: bool  # an input was an array not surely a tracer (the oracle saw it abstract)


class Evaluator(Expressions):
    def __init__(self, model: Model, oracle: Oracle) -> None:
        self.model = model
        self.oracle = oracle
        self.answers: dict[str, Result] = {}
        self.pending: dict[str, Query] = {}
        self.events: dict[tuple[int, int, str], Event] = {}
        self.asked = 0
        self.tracing = False  # the body being evaluated is traced: what JAX makes is a tracer
        self.module_env: dict[str, Val] = {}
        self.single = _single_bindings(model)
        self._mutated: dict[str, bool] = {}
        self.calls = Calls(self)
        # x64 changes every default dtype: a file that turns it on is not evaluated.
        self.enabled = "enable_x64" not in model.source

    def mutated(self, name: str) -> bool:
        found = self._mutated.get(name)
        if found is None:
            found = self._mutated[name] = _mutated(self.model, name, set())
        return found

    # -- rounds --
    def run(self) -> list[Event]:
        if not self.enabled or not _states_values(self.model):
            return []
        for _ in range(_ROUNDS):
            self.pending = {}
            self.events = {}
            self.calls.contexts = {}
            self.module_env = {}
            frame = Frame(self.module_env, 0)
            self.block(self.model.tree.body, frame)
            if not self.pending:
                break
            queries = list(self.pending.items())
            results = self.oracle.answer([q for _, q in queries])
            self.asked += len(queries)
            fresh = False
            for (key, _), result in zip(queries, results, strict=True):
                if result is not None:
                    self.answers[key] = result
                    fresh = True
            if not fresh:
                break
        return sorted(self.events.values(), key=lambda e: _position(e.node))

    def ask(self, node: ast.AST, query: dict[str, Any], inputs: list[Val]) -> Result | None:
        """The oracle's answer to `query` (None until a round brings it); an error becomes an
        Event at `node`."""
        key = key_of(query)
        result = self.answers.get(key)
        if result is None:
            # Known from an earlier check: answered now, so a file whose questions were all
            # asked before is evaluated in one round.
            result = self.oracle.cached(key)
            if result is None:
                self.pending[key] = query
                return None
            self.answers[key] = result
        if "err" in result:
            exception, message = result["err"]
            where = (*_position(node), key)
            self.events.setdefault(
                where,
                Event(
                    node,
                    str(exception),
                    str(message),
                    any(assumed(v) for v in inputs),
                    str(query["kind"]),
                    str(query.get("name", query["kind"])),
                    any(concrete_array(v) for v in inputs),
                ),
            )
        return result

    def result(self, node: ast.AST, query: dict[str, Any], inputs: list[Val]) -> Val:
        answer = self.ask(node, query, inputs)
        if answer is None or "ok" not in answer:
            return None
        value = from_spec(answer["ok"], any(assumed(v) for v in inputs))
        if answer.get("numpy"):
            return mark(value, False, numpy=True)
        return mark(value, self.tracing or any(_tracer(v) for v in inputs))

    # -- statements --
    def block(self, statements: list[ast.stmt], frame: Frame) -> None:
        for statement in statements:
            self.statement(statement, frame)

    def statement(self, node: ast.stmt, frame: Frame) -> None:  # noqa: C901, PLR0912
        env = frame.env
        if isinstance(node, ast.Assign):
            value = self.expr(node.value, frame)
            if (
                isinstance(value, Seq | Dict)
                and _mutable(value)
                and any(isinstance(t, ast.Name) and self.mutated(t.id) for t in node.targets)
            ):
                value = None  # a list or dict changed in place somewhere: not what it was
            for target in node.targets:
                if isinstance(target, ast.Tuple | ast.List) and isinstance(value, Arr):
                    value = self.unpack(node, value, len(target.elts))
                bind(target, value, env)
        elif isinstance(node, ast.AnnAssign):
            value = self.expr(node.value, frame) if node.value is not None else None
            if value is None and node.value is None:
                value = annotation_value(self.model, node.annotation)
            if node.value is not None or value is not None:
                bind(node.target, value, env)
        elif isinstance(node, ast.AugAssign):
            left = self.expr(node.target, frame) if isinstance(node.target, ast.Name) else None
            right = self.expr(node.value, frame)
            value = self.binop(node, node.op, left, right)
            bind(node.target, value, env)
        elif isinstance(node, ast.Expr):
            self.expr(node.value, frame)
        elif isinstance(node, ast.Return):
            frame.returns.append(self.expr(node.value, frame) if node.value else Py(None))
        elif isinstance(node, ast.Assert):
            self.expr(node.test, frame)
            self.assertion(node.test, env)
        elif isinstance(node, ast.If):
            self.expr(node.test, frame)
            self.branches([node.body, node.orelse], frame)
        elif isinstance(node, ast.For | ast.AsyncFor | ast.While):
            names = assigned(node)
            forget(names, env)
            inner = frame.sibling(dict(env))
            if isinstance(node, ast.While):
                self.expr(node.test, inner)
            else:
                self.expr(node.iter, frame)
            self.block(node.body, inner)
            self.block(node.orelse, frame.sibling(dict(env)))
            forget(names, env)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                self.expr(item.context_expr, frame)
                if item.optional_vars is not None:
                    bind(item.optional_vars, None, env)
            self.block(node.body, frame)
        elif isinstance(node, _TRY):
            names = assigned(node)
            self.block(node.body, frame.sibling(dict(env)))
            for handler in node.handlers:
                self.block(handler.body, frame.sibling(dict(env)))
            forget(names, env)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            env[node.name] = self.calls.defined(node, frame)
            if frame.depth == 0:
                self.calls.standalone(node, frame)
        elif isinstance(node, ast.ClassDef | ast.Import | ast.ImportFrom):
            forget(assigned(node) | _imported(node), env)
        elif isinstance(node, ast.Delete | ast.Global | ast.Nonlocal | ast.Match):
            forget(assigned(node), env)

    def unpack(self, node: ast.AST, value: Arr, count: int) -> Val:
        """`a, b, c = x`: the rows of x (as `x[0]`, `x[1]`...), when it has that many."""
        if not value.shape or value.shape[0] != count:
            return None
        base = spec(value)
        rows = [
            self.result(node, {"kind": "index", "args": [base, {"py": k}]}, [value])
            for k in range(count)
        ]
        return Seq("tuple", tuple(rows))

    def branches(self, bodies: list[list[ast.stmt]], frame: Frame) -> None:
        """Each body from the same names; afterwards a name keeps a value all of them agree on."""
        before = dict(frame.env)
        after: list[dict[str, Val]] = []
        for body in bodies:
            inner = frame.sibling(dict(before))
            self.block(body, inner)
            ended = bool(body) and isinstance(body[-1], ast.Return | ast.Raise | ast.Continue)
            if not ended:
                after.append(inner.env)
        names = set(before).union(*(set(e) for e in after))
        for name in names:
            values = [e.get(name) for e in after]
            frame.env[name] = values[0] if values and all(v == values[0] for v in values) else None

    def assertion(self, test: ast.expr, env: dict[str, Val]) -> None:
        """`assert x.shape == (3, 4)`: x is an array of that shape (its dtype not stated)."""
        if not (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)
            and isinstance(test.left, ast.Attribute)
            and test.left.attr == "shape"
            and isinstance(test.left.value, ast.Name)
        ):
            return
        name = test.left.value.id
        shape = self.expr(test.comparators[0], Frame(env, 0))
        if env.get(name) is not None or not isinstance(shape, Seq):
            return
        dims = [v.value for v in shape.items if isinstance(v, Py)]
        if len(dims) == len(shape.items) and all(type(d) is int and d >= 0 for d in dims):
            env[name] = Arr(
                tuple(int(d) for d in dims if isinstance(d, int)), "float32", False, True
            )


def _mutable(value: Val) -> bool:
    return isinstance(value, Dict) or isinstance(value, Seq) and value.kind == "list"


def _tracer(value: Val) -> bool:
    if isinstance(value, Arr):
        return value.tracer
    if isinstance(value, Seq):
        return any(_tracer(v) for v in value.items)
    if isinstance(value, Dict):
        return any(_tracer(v) for _, v in value.items)
    return False


def forget(names: set[str], env: dict[str, Val]) -> None:
    for name in names:
        env[name] = None


def _states_values(model: Model) -> bool:
    """Whether the file states any value the analysis can start from: a JAX or NumPy call with
    only literal arguments (`jnp.ones((3, 4))`, `jax.random.key(0)`), a shape assertion or an
    annotation; or a function JAX transforms (the tracing model found one). Code with none of
    these is not evaluated at all."""
    if model.functions:
        return True
    if "Float[" in model.source or "Int[" in model.source or "Bool[" in model.source:
        return True
    for call in model.calls:
        func = call.func.func if isinstance(call.func, ast.Call) else call.func
        qualified = model.qualify(func) or ""
        if qualified.startswith(("jax.", "numpy.")) and all(
            _literal(a) or (model.qualify(a) or "").startswith("jax.")
            for a in [*call.args, *(k.value for k in call.keywords)]
        ):
            return True
    return any(isinstance(n, ast.Assert) and "shape" in ast.dump(n.test) for n in model.nodes)


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Tuple | ast.List):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _literal(node.operand)
    if isinstance(node, ast.BinOp):
        return _literal(node.left) and _literal(node.right)
    return isinstance(node, ast.Attribute)  # a dtype: jnp.float32


def _position(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


__all__ = ["Evaluator", "Event", "Frame", "FunctionNode", "Wrap", "traced"]
