"""Which functions of a file JAX traces, and through which transform.

A function is traced when it is decorated with a transform (`@jax.jit`, `@partial(jax.jit, ...)`),
passed to one (`jax.jit(f)`, `lax.scan(body, ...)`, `pl.pallas_call(kernel, ...)`, also through
`functools.partial(f, ...)` or `self.method`), or called with traced arguments from a traced
function of the same file. Names are resolved in the enclosing scopes of the transform's call;
a name bound more than once there is ambiguous and skipped.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

from jaxerr_ls.analysis.model import FunctionNode, Transform
from jaxerr_ls.analysis.names import qualify

JIT_LIKE = frozenset({"jax.jit", "jax.checkpoint", "jax.pmap"})
_T = TypeVar("_T")


@dataclass(frozen=True)
class Spec:
    """Where a transform takes its function(s), and whether tracing is abstract."""

    positions: tuple[int, ...]  # positional indices of function arguments
    keywords: tuple[str, ...]
    abstract: bool
    list_position: int | None = None  # lax.switch: a list of branches


TRANSFORMS: Mapping[str, Spec] = {
    "jax.jit": Spec((0,), ("fun",), True),
    "jax.pmap": Spec((0,), ("fun",), True),
    "jax.checkpoint": Spec((0,), ("fun",), True),
    "jax.vmap": Spec((0,), ("fun",), True),
    "jax.shard_map": Spec((0,), ("f",), True),
    "jax.experimental.pallas.pallas_call": Spec((0,), ("kernel",), True),
    "jax.lax.scan": Spec((0,), ("f",), True),
    "jax.lax.fori_loop": Spec((2,), ("body_fun",), True),
    "jax.lax.while_loop": Spec((0, 1), ("cond_fun", "body_fun"), True),
    "jax.lax.cond": Spec((1, 2), ("true_fun", "false_fun"), True),
    "jax.lax.switch": Spec((), (), True, list_position=1),
    "jax.lax.map": Spec((0,), ("f",), True),
    "jax.lax.associative_scan": Spec((0,), ("fn",), True),
    "jax.make_jaxpr": Spec((0,), ("fun",), True),
    "jax.eval_shape": Spec((0,), ("fun",), True),
    "jax.grad": Spec((0,), ("fun",), False),
    "jax.value_and_grad": Spec((0,), ("fun",), False),
    "jax.jacfwd": Spec((0,), ("fun",), False),
    "jax.jacrev": Spec((0,), ("fun",), False),
    "jax.hessian": Spec((0,), ("fun",), False),
}


@dataclass(frozen=True)
class Applied:
    """A transform applied to a function node."""

    function: FunctionNode
    transform: Transform
    bound_positional: int  # leading positional parameters bound by functools.partial
    bound_keywords: frozenset[str]
    in_axes_none: frozenset[int] | None  # vmap: positions with in_axes None; None: unreadable
    alias: str | None  # `g = jax.jit(f)`: g
    explicit: frozenset[str] | None = None  # called from a traced function: these are traced


def _literal(node: ast.expr) -> object:
    """The node's value when it is a literal; None when it is not (or is `None`)."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _literals(node: ast.expr | None, kind: type[_T]) -> tuple[_T, ...] | None:
    """A literal `kind` or a tuple/list of them, as a tuple (bools are not ints); () without a
    node; None when the node is anything else."""
    if node is None:
        return ()
    value = _literal(node)
    values = value if isinstance(value, tuple | list) else (value,)
    found = tuple(v for v in values if isinstance(v, kind) and not isinstance(v, bool))
    return found if len(found) == len(values) else None


def literal_ints(node: ast.expr | None) -> tuple[int, ...] | None:
    return _literals(node, int)


def literal_strs(node: ast.expr | None) -> tuple[str, ...] | None:
    return _literals(node, str)


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def make_transform(api: str, node: ast.AST, form: str, options: ast.Call | None) -> Transform:
    if options is None or api not in JIT_LIKE:
        return Transform(api, node, form)
    if any(k.arg is None for k in options.keywords):
        return Transform(api, node, form, static_known=False)
    nums_kw = "static_broadcasted_argnums" if api == "jax.pmap" else "static_argnums"
    nums_node, names_node = _keyword(options, nums_kw), _keyword(options, "static_argnames")
    nums, names = literal_ints(nums_node), literal_strs(names_node)
    return Transform(
        api,
        node,
        form,
        static_argnums=nums if nums_node is not None else None,
        static_argnames=names if names_node is not None else None,
        static_known=nums is not None and names is not None,
    )


class Scopes:
    """Name -> function definitions, per scope (module, class or function body)."""

    def __init__(self, tree: ast.Module) -> None:
        self.parent: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
        self.tree = tree
        self._tables: dict[int, dict[str, list[ast.AST]]] = {}

    def scope_of(self, node: ast.AST) -> Iterator[ast.AST]:
        """The enclosing scopes of a node, innermost first (classes skipped, as Python does)."""
        current = self.parent.get(node)
        while current is not None:
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield current
            current = self.parent.get(current)
        yield self.tree

    def enclosing_class(self, function: ast.AST) -> ast.ClassDef | None:
        parent = self.parent.get(function)
        return parent if isinstance(parent, ast.ClassDef) else None

    def lookup(self, name: str, at: ast.AST) -> FunctionNode | None:
        """The one function `name` is bound to in the innermost scope that binds it."""
        for scope in self.scope_of(at):
            table = self._tables.get(id(scope))
            if table is None:
                table = self._tables[id(scope)] = scope_bindings(scope)
            bound = table.get(name, [])
            if bound:
                if len(bound) != 1:
                    return None
                target = bound[0]
                return target if isinstance(target, FunctionNode) else None
        return None

    def method(self, name: str, at: ast.AST) -> FunctionNode | None:
        """`self.name` inside a class: its method of that name."""
        current = self.parent.get(at)
        while current is not None and not isinstance(current, ast.ClassDef):
            current = self.parent.get(current)
        if current is None:
            return None
        found = [
            n
            for n in current.body
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name
        ]
        return found[0] if len(found) == 1 else None


def scope_bindings(scope: ast.AST) -> dict[str, list[ast.AST]]:
    """What binds each name directly in a scope: parameters (the arguments node), defs and
    classes (the node), assignments (the statement; a lambda's value for `f = lambda ...`)."""
    out: dict[str, list[ast.AST]] = {}

    def bind(name: str, node: ast.AST) -> None:
        out.setdefault(name, []).append(node)

    body = (
        scope.body if isinstance(scope, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef) else []
    )
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        args = scope.args
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None:
                bind(a.arg, scope.args)
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bind(node.name, node)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    if not _wraps(node.value, target.id):  # `f = jax.jit(f)` keeps f's def
                        bind(target.id, node.value if isinstance(node.value, ast.Lambda) else node)
                else:
                    for n in ast.walk(target):
                        if isinstance(n, ast.Name):
                            bind(n.id, node)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for imported in node.names:
                bind((imported.asname or imported.name).split(".")[0], node)
        elif isinstance(node, ast.For | ast.With | ast.AugAssign | ast.AnnAssign | ast.NamedExpr):
            targets = [getattr(node, "target", None)] + [
                i.optional_vars for i in getattr(node, "items", [])
            ]
            for t in targets:
                for n in ast.walk(t) if t is not None else ():
                    if isinstance(n, ast.Name):
                        bind(n.id, node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _wraps(value: ast.expr, name: str) -> bool:
    return isinstance(value, ast.Call) and any(
        isinstance(a, ast.Name) and a.id == name for a in value.args
    )


def _function_argument(
    node: ast.expr, scopes: Scopes, bindings: Mapping[str, str]
) -> tuple[FunctionNode, int, frozenset[str]] | None:
    """The function a transform receives: a lambda, a name, `self.m`, or `partial(f, ...)`."""
    if isinstance(node, ast.Lambda):
        return node, 0, frozenset()
    if isinstance(node, ast.Name):
        found = scopes.lookup(node.id, node)
        return (found, 0, frozenset()) if found is not None else None
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "cls")
    ):
        found = scopes.method(node.attr, node)
        return (found, 1, frozenset()) if found is not None else None
    if isinstance(node, ast.Call) and qualify(node.func, bindings) == "functools.partial":
        if not node.args or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if any(k.arg is None for k in node.keywords):
            return None
        inner = _function_argument(node.args[0], scopes, bindings)
        if inner is None:
            return None
        function, bound, names = inner
        extra = frozenset(k.arg for k in node.keywords if k.arg is not None)
        return function, bound + len(node.args) - 1, names | extra
    return None


def _vmap_none(call: ast.Call | None) -> frozenset[int] | None:
    if call is None:
        return frozenset()
    node = _keyword(call, "in_axes")
    if node is None and len(call.args) > 1:
        node = call.args[1]
    if node is None:
        return frozenset()
    value = _literal(node)
    if isinstance(value, int) and not isinstance(value, bool):
        return frozenset()
    if isinstance(value, tuple | list) and all(v is None or isinstance(v, int) for v in value):
        return frozenset(i for i, v in enumerate(value) if v is None)
    return None


def _assigned_alias(call: ast.Call, scopes: Scopes) -> str | None:
    parent = scopes.parent.get(call)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        target = parent.targets[0]
        if isinstance(target, ast.Name):
            return target.id
        if isinstance(target, ast.Attribute):
            return target.attr
    return None


def applied_transforms(
    nodes: Iterable[ast.AST], scopes: Scopes, bindings: Mapping[str, str]
) -> list[Applied]:
    """Every (function, transform) pair visible in the file."""
    out: list[Applied] = []
    for node in nodes:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out += _decorated(node, bindings)
        elif isinstance(node, ast.Call):
            out += _called(node, scopes, bindings)
    return out


def _decorated(
    node: ast.FunctionDef | ast.AsyncFunctionDef, bindings: Mapping[str, str]
) -> list[Applied]:
    out: list[Applied] = []
    for decorator in node.decorator_list:
        found = _decorator_transform(decorator, bindings)
        if found is not None:
            api, form, options = found
            transform = make_transform(api, decorator, form, options)
            vmap = _vmap_none(options) if api == "jax.vmap" else frozenset()
            out.append(Applied(node, transform, 0, frozenset(), vmap, None))
    return out


def _decorator_transform(
    decorator: ast.expr, bindings: Mapping[str, str]
) -> tuple[str, str, ast.Call | None] | None:
    """The transform a decorator applies: its api, form, and the call holding its options."""
    api = qualify(decorator, bindings)
    if api is not None and api in TRANSFORMS:
        return api, "decorator", None
    if not isinstance(decorator, ast.Call):
        return None
    api = qualify(decorator.func, bindings)
    if api == "functools.partial" and len(decorator.args) == 1:
        inner = qualify(decorator.args[0], bindings)
        if inner is None or inner not in TRANSFORMS:
            return None
        return inner, "partial-decorator", decorator
    if api is not None and api in TRANSFORMS and not decorator.args:
        # `@jax.jit(static_argnames=...)` (newer JAX) and `@jax.checkpoint(...)`.
        return api, "decorator", decorator
    return None


def _called(call: ast.Call, scopes: Scopes, bindings: Mapping[str, str]) -> list[Applied]:
    api = qualify(call.func, bindings)
    spec = TRANSFORMS.get(api or "")
    if spec is None or api is None:
        return []
    arguments: list[ast.expr] = [call.args[i] for i in spec.positions if i < len(call.args)]
    arguments += [k.value for k in call.keywords if k.arg in spec.keywords]
    if spec.list_position is not None and spec.list_position < len(call.args):
        branches = call.args[spec.list_position]
        if isinstance(branches, ast.List | ast.Tuple):
            arguments += branches.elts
    transform = make_transform(api, call, "call", call)
    alias = _assigned_alias(call, scopes) if api in JIT_LIKE else None
    vmap = _vmap_none(call) if api == "jax.vmap" else frozenset()
    out: list[Applied] = []
    for argument in arguments:
        found = _function_argument(argument, scopes, bindings)
        if found is None:
            continue
        function, bound, names = found
        out.append(Applied(function, transform, bound, names, vmap, alias))
    return out
