"""Expressions in the abstract interpreter: names looked up through the frames of the bodies
being evaluated, literals and containers as the code states them, operators and attributes on
arrays asked of the oracle (through the evaluator's `result`), Python's own arithmetic on sizes
done as Python does it."""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jaxerr_ls.analysis.build import Model
from jaxerr_ls.analysis.shapes.avals import (
    JAX_MODULES,
    PYTHON_TYPES,
    Arr,
    Dict,
    DType,
    Ellipsis_,
    Func,
    JaxFn,
    Py,
    Seq,
    Slice,
    Val,
    jax_array,
    spec,
)

if TYPE_CHECKING:
    from jaxerr_ls.analysis.shapes.calls import Calls

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


class Expressions:
    """The evaluator's expression half; `Evaluator` supplies the state and the oracle."""

    model: Model
    single: set[str]
    module_env: dict[str, Val]
    calls: Calls

    def result(self, node: ast.AST, query: dict[str, Any], inputs: list[Val]) -> Val:
        raise NotImplementedError  # the evaluator asks the oracle

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
        if isinstance(op, ast.Mult) and isinstance(left, Seq | Py) and isinstance(right, Seq | Py):
            sequence, count = (left, right) if isinstance(left, Seq) else (right, left)
            if (
                isinstance(sequence, Seq)
                and isinstance(count, Py)
                and type(count.value) is int
                and count.value <= 64
            ):
                return Seq(sequence.kind, sequence.items * max(count.value, 0))
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
