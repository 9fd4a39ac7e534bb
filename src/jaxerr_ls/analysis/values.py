"""Which values in a function body are traced, and from which parameters.

A value's origin is a frozenset of parameter names (empty: traced, but not from a parameter, e.g.
a closure); None means not known to be traced. Conservative: a name is traced only when every
assignment to it in the body is traced, and only expressions JAX surely turns into tracers are
(arithmetic, comparisons, indexing and array methods of tracers, `jax.numpy`/`lax`/`nn`/`random`
results of traced arguments). `.shape`, `.ndim`, `.dtype`, `len()`, `is None` are never traced.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

from jaxerr_ls.analysis.names import qualify

Origin = frozenset[str] | None

_JAX_ARRAY_MODULES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.nn.",
    "jax.scipy.",
    "jax.random.",
    "jax.image.",
)
# Functions (of NumPy and jax.numpy alike) whose result is metadata, not an array; the
# `numpy-on-traced` rule reads NumPy's calls with this list.
METADATA_CALLS = frozenset(
    {
        "shape",
        "ndim",
        "size",
        "dtype",
        "result_type",
        "iinfo",
        "finfo",
        "issubdtype",
        "isscalar",
        "can_cast",
        "promote_types",
        "broadcast_shapes",
    }
)
# jax.numpy / lax calls whose result is metadata: the above, `isdtype` and `lax.axis_size`.
_JAX_METADATA_CALLS = METADATA_CALLS | {"isdtype", "axis_size"}
# Attributes of an array that are arrays too; every other attribute (shape, ndim, dtype, size,
# sharding, or a field of a pytree dataclass) is taken as not traced.
ARRAY_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "at", "flat"})
# Array methods whose result is an array computed from the array (the shape analysis asks JAX
# for these: `analysis/shapes/calls.py`).
SHAPE_METHODS = frozenset(
    ["sum", "mean", "max", "min", "prod", "std", "var", "reshape", "astype", "transpose"]
    + ["squeeze", "ravel", "flatten", "dot", "clip", "cumsum", "cumprod", "argmax", "argmin"]
    + ["any", "all", "round", "conj", "swapaxes", "take", "sort", "argsort", "repeat"]
    + ["diagonal"]
)
ARRAY_METHODS = SHAPE_METHODS | frozenset(
    ["conjugate", "set", "add", "multiply", "divide", "power", "get", "apply", "trace"]
    + ["nonzero", "ptp", "choose", "compress", "view", "__getitem__", "__add__", "__mul__"]
    + ["__sub__", "__truediv__"]
)
_TRANSFORMED = frozenset(
    {
        "jax.grad",
        "jax.value_and_grad",
        "jax.vmap",
        "jax.jit",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.hessian",
        "jax.checkpoint",
    }
)
_BUILTIN_TRACED = frozenset({"abs", "pow", "sum", "divmod"})


def _union(origins: list[Origin]) -> Origin:
    found = [o for o in origins if o is not None]
    if not found:
        return None
    return frozenset().union(*found)


class Values:
    """Evaluates expressions of one function body against its traced names."""

    def __init__(self, env: Mapping[str, frozenset[str]], bindings: Mapping[str, str]) -> None:
        self.env = env
        self.bindings = bindings

    def origin(self, node: ast.expr | None) -> Origin:  # noqa: PLR0911, PLR0912, C901
        if node is None:
            return None
        if isinstance(node, ast.Name):
            return self.env.get(node.id)
        if isinstance(node, ast.BinOp):
            if isinstance(node.left, ast.Constant | ast.JoinedStr) and isinstance(node.op, ast.Mod):
                return None  # "%s" % x formats a string
            return _union([self.origin(node.left), self.origin(node.right)])
        if isinstance(node, ast.UnaryOp):
            return None if isinstance(node.op, ast.Not) else self.origin(node.operand)
        if isinstance(node, ast.Compare):
            if any(isinstance(op, ast.Is | ast.IsNot | ast.In | ast.NotIn) for op in node.ops):
                return None
            return _union([self.origin(node.left), *(self.origin(c) for c in node.comparators)])
        if isinstance(node, ast.Subscript):
            return self.origin(node.value)
        if isinstance(node, ast.Attribute):
            if node.attr in ARRAY_ATTRIBUTES:
                return self.origin(node.value)
            return None
        if isinstance(node, ast.IfExp):
            body, orelse = self.origin(node.body), self.origin(node.orelse)
            return None if body is None or orelse is None else body | orelse
        if isinstance(node, ast.NamedExpr):
            return self.origin(node.value)
        if isinstance(node, ast.Call):
            return self._call(node)
        return None

    def _call(self, node: ast.Call) -> Origin:
        func = node.func
        args = [a.value if isinstance(a, ast.Starred) else a for a in node.args]
        values = [*args, *(k.value for k in node.keywords if k.arg != "dtype")]
        qualified = qualify(func, self.bindings)
        if qualified is not None and qualified.startswith(_JAX_ARRAY_MODULES):
            if qualified.rsplit(".", 1)[-1] in _JAX_METADATA_CALLS or qualified.startswith(
                "jax.lax.axis_"
            ):
                return None
            return _union([self.origin(v) for v in values])
        if isinstance(func, ast.Call) and (qualify(func.func, self.bindings) or "") in _TRANSFORMED:
            return _union([self.origin(v) for v in values])  # jax.value_and_grad(f)(x)
        if isinstance(func, ast.Name) and func.id in _BUILTIN_TRACED and func.id not in self.env:
            return _union([self.origin(v) for v in args])
        if isinstance(func, ast.Attribute) and func.attr in ARRAY_METHODS:
            return self.origin(func.value)
        return None

    def traced(self, node: ast.expr | None) -> bool:
        return self.origin(node) is not None


def walk_body(node: ast.AST) -> Iterator[ast.AST]:
    """Every node of a function's body, not descending into nested functions, lambdas or classes
    (they are scopes of their own)."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        stack.extend(ast.iter_child_nodes(current))


def _bind(
    target: ast.expr, value: ast.expr | None, traced_whole: bool
) -> Iterator[tuple[str, ast.expr | None, bool]]:
    """(name, the expression it gets or None, whether it gets an element of a traced whole)."""
    if isinstance(target, ast.Name):
        yield target.id, value, traced_whole
    elif isinstance(target, ast.Tuple | ast.List):
        elements = value.elts if isinstance(value, ast.Tuple | ast.List) else None
        if elements is not None and len(elements) == len(target.elts):
            for sub, sub_value in zip(target.elts, elements, strict=True):
                yield from _bind(sub, sub_value, False)
        else:
            for sub in target.elts:
                yield from _bind(sub, value if elements is None else None, elements is None)
    elif isinstance(target, ast.Starred):
        yield from _bind(target.value, None, False)


def assignments(body_owner: ast.AST) -> dict[str, list[tuple[ast.expr | None, bool]]]:
    """name -> [(value, element_of)] for every binding in the body. A value of None is a binding
    we cannot evaluate (import, with, except, for over a non-traced iterable...)."""
    found: dict[str, list[tuple[ast.expr | None, bool]]] = {}

    def add(target: ast.expr, value: ast.expr | None, whole: bool = False) -> None:
        for name, expr, element in _bind(target, value, whole):
            found.setdefault(name, []).append((expr, element))

    for node in walk_body(body_owner):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                add(target, node.value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            add(node.target, node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            combined = ast.BinOp(left=node.target, op=node.op, right=node.value)
            found.setdefault(node.target.id, []).append((combined, False))
        elif isinstance(node, ast.NamedExpr):
            add(node.target, node.value)
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            add(node.target, node.iter, True)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None:
                    add(item.optional_vars, None)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.setdefault(node.name, []).append((None, False))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                found.setdefault(name, []).append((None, False))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.setdefault(node.name, []).append((None, False))
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                found.setdefault(name, []).append((None, False))
    return found


def traced_env(
    owner: ast.AST,
    sources: Mapping[str, frozenset[str]],
    untraced: frozenset[str],
    inherited: Mapping[str, frozenset[str]],
    bindings: Mapping[str, str],
    bound: dict[str, list[tuple[ast.expr | None, bool]]] | None = None,
) -> dict[str, frozenset[str]]:
    """The body's traced names: the greatest set where every binding of each name is traced.

    `sources` are the traced parameters (their origins), `untraced` the other parameters,
    `inherited` the enclosing traced function's names (closures) when not rebound here.
    """
    bound = assignments(owner) if bound is None else bound
    env: dict[str, frozenset[str]] = {
        k: v for k, v in inherited.items() if k not in bound and k not in untraced
    }
    env.update(sources)
    candidates = {name for name in bound if name not in untraced}
    for name in candidates:
        env[name] = env.get(name, frozenset()) if name in sources else frozenset()
    values = Values(env, bindings)
    for _ in range(12):
        changed = False
        for name in sorted(candidates):
            if name not in env:
                continue
            origins: list[Origin] = [sources.get(name)] if name in sources else []
            for expr, element in bound[name]:
                origin = values.origin(expr)
                if element and origin is not None and _iterates_to_plain(expr):
                    origin = None
                origins.append(origin)
            if any(o is None for o in origins):
                del env[name]
                changed = True
                continue
            merged = frozenset().union(*(o for o in origins if o is not None))
            if merged != env[name]:
                env[name] = merged
                changed = True
        if not changed:
            break
    return env


def _iterates_to_plain(expr: ast.expr | None) -> bool:
    """`for k, v in params.items()` and kin: the elements are not arrays."""
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and (expr.func.attr in ("items", "keys", "values"))
    )
