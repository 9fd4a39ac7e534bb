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
import operator
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jaxerr_ls.analysis.build import Model
from jaxerr_ls.analysis.shapes.avals import (
    JAX_MODULES,
    PYTHON_TYPES,
    Arr,
    Dict,
    DType,
    Ellipsis_,
    Func,
    FunctionNode,
    JaxFn,
    Py,
    Seq,
    Slice,
    Val,
    Wrap,
    annotation_value,
    assumed,
    concrete_array,
    from_spec,
    jax_array,
    mark,
    spec,
    traced,
)
from jaxerr_ls.analysis.shapes.calls import Calls
from jaxerr_ls.analysis.shapes.oracle import Oracle, Query, Result, key_of

_ROUNDS = 10
_TRY = (ast.Try, getattr(ast, "TryStar", ast.Try))
_BINOPS = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "truediv",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.Pow: "pow",
    ast.MatMult: "matmul",
    ast.BitAnd: "and",
    ast.BitOr: "or",
    ast.BitXor: "xor",
}
_COMPARE = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}


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


@dataclass
class Frame:
    """One evaluation of a body: its names, its returns."""

    env: dict[str, Val]
    depth: int
    returns: list[Val] = field(default_factory=list)
    outer: Frame | None = None
    traced: bool = False  # a body JAX traces (jit, vmap, a loop, a branch): arrays are tracers

    def sibling(self, env: dict[str, Val]) -> Frame:
        """A frame for a block of the same body (a branch, a loop) starting from `env`."""
        return Frame(env, self.depth, self.returns, self.outer, self.traced)


class Evaluator:
    def __init__(self, model: Model, oracle: Oracle) -> None:
        self.model = model
        self.oracle = oracle
        self.answers: dict[str, Result] = {}
        self.pending: dict[str, Query] = {}
        self.events: dict[tuple[int, int, str], Event] = {}
        self.asked = 0
        self.tracing = False  # the body being evaluated is traced: what JAX makes is a tracer
        self.module_env: dict[str, Val] = {}
        self.single = _single_bindings(model.tree)
        self.mutated = _mutated(model)
        self.calls = Calls(self)
        # x64 changes every default dtype: a file that turns it on is not evaluated.
        self.enabled = "enable_x64" not in model.source

    # -- rounds --
    def run(self) -> list[Event]:
        if not self.enabled:
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
            self.pending[key] = query
            return None
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
                and any(isinstance(t, ast.Name) and t.id in self.mutated for t in node.targets)
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

    # -- expressions --
    def lookup(self, name: str, frame: Frame) -> Val:
        current: Frame | None = frame
        while current is not None:
            if name in current.env:
                return current.env[name]
            current = current.outer
        if name in self.single:  # a module name bound once: the same wherever it is read
            return self.module_env.get(name)
        return None

    def shadowed(self, node: ast.expr, frame: Frame) -> bool:
        head = node
        while isinstance(head, ast.Attribute):
            head = head.value
        if not isinstance(head, ast.Name):
            return True
        current: Frame | None = frame
        while current is not None:
            if head.id in current.env and current.depth > 0:
                return True
            current = current.outer
        return False

    def qualify(self, node: ast.expr, frame: Frame) -> str | None:
        return None if self.shadowed(node, frame) else self.model.qualify(node)

    def expr(self, node: ast.expr | None, frame: Frame) -> Val:  # noqa: C901, PLR0911, PLR0912
        if node is None:
            return None
        if isinstance(node, ast.Constant):
            constant = node.value
            if constant is None or isinstance(constant, bool | int | float | complex | str):
                return Py(constant)
            if constant is Ellipsis:
                return Ellipsis_()
            return None
        if isinstance(node, ast.Name):
            found = self.lookup(node.id, frame)
            if found is None and not self.shadowed(node, frame):
                if node.id in PYTHON_TYPES and node.id not in self.single:
                    return DType(node.id)
                qualified = self.model.qualify(node)
                if qualified is not None and qualified.startswith(JAX_MODULES):
                    return JaxFn(qualified)
            return found
        if isinstance(node, ast.Tuple | ast.List):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                for e in node.elts:
                    self.expr(e.value if isinstance(e, ast.Starred) else e, frame)
                return None
            items = tuple(self.expr(e, frame) for e in node.elts)
            return Seq("tuple" if isinstance(node, ast.Tuple) else "list", items)
        if isinstance(node, ast.Dict):
            pairs: list[tuple[str, Val]] = []
            known = True
            for k, v in zip(node.keys, node.values, strict=True):
                value = self.expr(v, frame)
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    pairs.append((k.value, value))
                else:
                    known = False
            return Dict(tuple(pairs)) if known else None
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand, frame)
            if isinstance(operand, Py) and isinstance(operand.value, int | float):
                if isinstance(node.op, ast.USub):
                    return Py(-operand.value)
                if isinstance(node.op, ast.UAdd):
                    return operand
            if isinstance(operand, Arr) and isinstance(node.op, ast.USub | ast.UAdd):
                return operand if operand.dtype != "bool" else None
            return None
        if isinstance(node, ast.BinOp):
            left, right = self.expr(node.left, frame), self.expr(node.right, frame)
            return self.binop(node, node.op, left, right)
        if isinstance(node, ast.Compare):
            values = [self.expr(node.left, frame), *(self.expr(c, frame) for c in node.comparators)]
            if (
                len(node.ops) == 1
                and type(node.ops[0]) in _COMPARE
                and jax_array(values[0]) | jax_array(values[1])
            ):
                return self.operate(node, _COMPARE[type(node.ops[0])], values[0], values[1])
            return None
        if isinstance(node, ast.BoolOp):
            for part in node.values:
                self.expr(part, frame)
            return None
        if isinstance(node, ast.Call):
            return self.calls.call(node, frame)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, frame)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, frame)
        if isinstance(node, ast.IfExp):
            self.expr(node.test, frame)
            body, orelse = self.expr(node.body, frame), self.expr(node.orelse, frame)
            return body if body == orelse else None
        if isinstance(node, ast.NamedExpr):
            value = self.expr(node.value, frame)
            bind(node.target, value, frame.env)
            return value
        if isinstance(node, ast.Lambda):
            return Func(node, (), frame if frame.depth > 0 else None)
        if isinstance(node, ast.Slice):
            parts = (node.lower, node.upper, node.step)
            return Slice(tuple(self.expr(p, frame) if p else Py(None) for p in parts))  # type: ignore[arg-type]
        if isinstance(node, ast.Starred):
            self.expr(node.value, frame)
        return None

    def binop(self, node: ast.AST, op: ast.operator, left: Val, right: Val) -> Val:
        if isinstance(left, Py) and isinstance(right, Py):
            return _python(op, left.value, right.value)
        if isinstance(left, Seq) and isinstance(right, Seq) and isinstance(op, ast.Add):
            if left.kind == right.kind:
                return Seq(left.kind, left.items + right.items)
            return None
        name = _BINOPS.get(type(op))
        if name is None or not (jax_array(left) or jax_array(right)):
            return None  # NumPy's rules between NumPy arrays
        return self.operate(node, name, left, right)

    def operate(self, node: ast.AST, name: str, left: Val, right: Val) -> Val:
        a, b = spec(left), spec(right)
        if a is None or b is None:
            return None
        return self.result(node, {"kind": "binop", "name": name, "args": [a, b]}, [left, right])

    def attribute(self, node: ast.Attribute, frame: Frame) -> Val:
        qualified = self.qualify(node, frame)
        if qualified is not None and _is_dtype(qualified):
            return DType(qualified.rsplit(".", 1)[-1].replace("bool_", "bool"))
        if qualified is not None and qualified.startswith(JAX_MODULES):
            return JaxFn(qualified)
        base = self.expr(node.value, frame)
        if not isinstance(base, Arr):
            return None
        if base.numpy and node.attr not in ("shape", "ndim", "size"):
            return None
        if node.attr == "shape":
            return Seq("tuple", tuple(Py(d) for d in base.shape))
        if node.attr == "ndim":
            return Py(len(base.shape))
        if node.attr == "size":
            size = 1
            for d in base.shape:
                size *= d
            return Py(size)
        if node.attr == "dtype":
            return None if base.assumed else DType(base.dtype)
        if node.attr in ("T", "mT", "real", "imag"):
            query = {"kind": "attr", "name": node.attr, "args": [spec(base)]}
            return self.result(node, query, [base])
        return None

    def subscript(self, node: ast.Subscript, frame: Frame) -> Val:
        base = self.expr(node.value, frame)
        index = self.expr(node.slice, frame)
        if isinstance(base, Seq) and isinstance(index, Py) and type(index.value) is int:
            if -len(base.items) <= index.value < len(base.items):
                return base.items[index.value]
            return None
        if isinstance(base, Dict) and isinstance(index, Py) and isinstance(index.value, str):
            return base.get(index.value)
        if not isinstance(base, Arr) or isinstance(node.ctx, ast.Store | ast.Del) or base.numpy:
            return None
        if isinstance(index, Seq) and index.kind == "list":
            return None  # a list index: JAX's message is about the list, not the shape
        a, i = spec(base), spec(index)
        if a is None or i is None:
            return None
        return self.result(node, {"kind": "index", "args": [a, i]}, [base, index])


_MUTATORS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem"}
    | {"sort", "reverse", "__setitem__", "__delitem__"}
)


def _mutable(value: Val) -> bool:
    return isinstance(value, Dict) or isinstance(value, Seq) and value.kind == "list"


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


def _mutated(model: Model) -> set[str]:
    """Names whose list or dict may change in place: a mutating method called on them, an item
    assigned or deleted, or passed to a call that is not JAX's (nor a builtin that only reads,
    nor a function of this file that does not change that parameter)."""
    found: set[str] = set()
    local: list[tuple[ast.Call, ast.FunctionDef]] = []
    for node in model.nodes:
        if isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.attr in _MUTATORS
            ):
                found.add(func.value.id)
            callee = _callee(model, node)
            if isinstance(callee, ast.FunctionDef):
                local.append((node, callee))
            elif callee != "jax":
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    if isinstance(arg, ast.Name):
                        found.add(arg.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            if isinstance(node.value, ast.Name):
                found.add(node.value.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
    for call, function in local:  # this file's functions: the parameters they change
        names = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
        for k, arg in enumerate(call.args):
            if isinstance(arg, ast.Name) and (k >= len(names) or names[k] in found):
                found.add(arg.id)
        for keyword in call.keywords:
            if isinstance(keyword.value, ast.Name) and (
                keyword.arg is None or keyword.arg in found
            ):
                found.add(keyword.value.id)
    return found


def _tracer(value: Val) -> bool:
    if isinstance(value, Arr):
        return value.tracer
    if isinstance(value, Seq):
        return any(_tracer(v) for v in value.items)
    if isinstance(value, Dict):
        return any(_tracer(v) for _, v in value.items)
    return False


def bind(target: ast.expr, value: Val, env: dict[str, Val]) -> None:
    if isinstance(target, ast.Name):
        env[target.id] = value
    elif isinstance(target, ast.Tuple | ast.List):
        starred = any(isinstance(e, ast.Starred) for e in target.elts)
        items = value.items if isinstance(value, Seq) and not starred else None
        if items is not None and len(items) != len(target.elts):
            items = None
        for k, element in enumerate(target.elts):
            bind(element, items[k] if items is not None else None, env)
    elif isinstance(target, ast.Starred):
        bind(target.value, None, env)


def forget(names: set[str], env: dict[str, Val]) -> None:
    for name in names:
        env[name] = None


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


def _single_bindings(tree: ast.Module) -> set[str]:
    """Module names bound by exactly one module-level statement and never declared global."""
    counts: dict[str, int] = {}
    for statement in tree.body:
        for name in assigned(statement) | _imported(statement):
            counts[name] = counts.get(name, 0) + 1
    declared: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            declared.update(node.names)
    return {n for n, c in counts.items() if c == 1 and n not in declared}


def _position(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


_ARITHMETIC = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


def _python(op: ast.operator, left: object, right: object) -> Val:
    """Small arithmetic the code does on sizes and constants (n * 2, d // h, 1.0 - rate), as
    Python does it (the values JAX then sees)."""
    numbers = (int, float, complex)
    function = _ARITHMETIC.get(type(op))
    if function is None or type(left) not in numbers or type(right) not in numbers:
        return None
    if abs(left) > 1 << 31 or abs(right) > 1 << 31:  # type: ignore[arg-type]
        return None
    try:
        return Py(function(left, right))
    except (ArithmeticError, TypeError):
        return None


_DTYPES = frozenset(
    [
        "float16",
        "float32",
        "float64",
        "bfloat16",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "bool_",
        "complex64",
        "complex128",
    ]
)


def _is_dtype(qualified: str) -> bool:
    module, _, name = qualified.rpartition(".")
    return module in ("jax.numpy", "numpy") and name in _DTYPES


__all__ = ["Evaluator", "Event", "Frame", "FunctionNode", "Wrap", "traced"]
