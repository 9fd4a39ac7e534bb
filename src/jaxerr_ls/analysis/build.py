"""`analyze(source)`: the file's tracing model, built once per text and read by every rule."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from functools import lru_cache
from types import MappingProxyType

from jaxerr_ls.analysis.model import (
    USE_AXIS,
    USE_BRANCH,
    USE_INDEX,
    USE_RANGE,
    USE_SHAPE,
    Argument,
    CallSite,
    FunctionNode,
    Param,
    TracedFunction,
    Transform,
)
from jaxerr_ls.analysis.names import qualify
from jaxerr_ls.analysis.tracing import (
    TRANSFORMS,
    Applied,
    Scopes,
    applied_transforms,
    literal_ints,
)
from jaxerr_ls.analysis.values import Values, assignments, traced_env, walk_body
from jaxerr_ls.resolve import scan_imports

CALLED_FROM = "called-from"
CLOSURE = "closure"
_PROPAGATION_ROUNDS = 3
_SHAPE_CALLS = frozenset(
    [
        "zeros",
        "ones",
        "empty",
        "full",
        "arange",
        "linspace",
        "eye",
        "identity",
        "tri",
        "one_hot",
        "broadcast_to",
        "reshape",
        "iota",
        "broadcasted_iota",
        "normal",
        "uniform",
        "randint",
        "bernoulli",
        "categorical",
    ]
)


class Model:
    """A parsed file and its traced functions. Build with `analyze(source)`."""

    def __init__(
        self, source: str, tree: ast.Module, bindings: Mapping[str, str] | None = None
    ) -> None:
        self.source = source
        self.tree = tree
        self.lines = source.splitlines()
        # `bindings` given: a part of a larger file, read with that file's imports.
        self.bindings: Mapping[str, str] = scan_imports(source) if bindings is None else bindings
        self.scopes = Scopes(tree)
        self._values: dict[int, Values] = {}
        self.functions: tuple[TracedFunction, ...] = ()
        self._by_node: dict[int, TracedFunction] = {}
        # One walk of the tree, indexed: rules and call-site searches read these, not the tree.
        self.nodes: list[ast.AST] = list(self.scopes.parent) + [tree]
        self.calls: list[ast.Call] = [n for n in self.nodes if isinstance(n, ast.Call)]
        self.calls.sort(key=lambda c: (c.lineno, c.col_offset))
        self.calls_by_name: dict[str, list[ast.Call]] = {}
        self.calls_by_attr: dict[str, list[ast.Call]] = {}
        for call in self.calls:
            if isinstance(call.func, ast.Name):
                self.calls_by_name.setdefault(call.func.id, []).append(call)
            elif isinstance(call.func, ast.Attribute):
                self.calls_by_attr.setdefault(call.func.attr, []).append(call)
        # `jax.jit(f)(x)`: the calls of a jit applied in place, by the name it wraps.
        self.jit_calls_by_target: dict[str, list[ast.Call]] = {}
        for call in self.calls:
            inner = call.func
            if (
                isinstance(inner, ast.Call)
                and inner.args
                and isinstance(inner.args[0], ast.Name)
                and qualify(inner.func, self.bindings) == "jax.jit"
            ):
                self.jit_calls_by_target.setdefault(inner.args[0].id, []).append(call)
        self._encoded: list[bytes] | None = None
        self._bodies: dict[int, list[ast.AST]] = {}

    # -- queries for the rules --
    def qualify(self, node: ast.expr) -> str | None:
        """`jnp.zeros` -> "jax.numpy.zeros" through the file's imports."""
        return qualify(node, self.bindings)

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.scopes.parent.get(node)

    def function(self, node: FunctionNode) -> TracedFunction | None:
        return self._by_node.get(id(node))

    def values(self, function: TracedFunction) -> Values:
        found = self._values.get(id(function.node))
        if found is None:
            found = Values(function.traced_names, self.bindings)
            self._values[id(function.node)] = found
        return found

    def origin(self, expr: ast.expr, function: TracedFunction) -> frozenset[str] | None:
        return self.values(function).origin(expr)

    def traced(self, expr: ast.expr, function: TracedFunction) -> bool:
        return self.values(function).origin(expr) is not None

    def body(self, function: TracedFunction) -> Iterator[ast.AST]:
        """The nodes of the function's own body (nested functions are functions of their own)."""
        found = self._bodies.get(id(function.node))
        if found is None:
            found = self._bodies[id(function.node)] = list(self._walk_body(function))
        return iter(found)

    def _walk_body(self, function: TracedFunction) -> Iterator[ast.AST]:
        node = function.node
        if isinstance(node, ast.Lambda):
            yield node.body
            yield from walk_body(node.body)
            return
        for statement in node.body:
            yield statement
            yield from walk_body(statement)

    def text(self, node: ast.AST) -> str:
        """The node's source text (ast columns are UTF-8 byte offsets)."""
        if self._encoded is None:
            # bytes.splitlines breaks only at \n, \r\n and \r, as the tokenizer does.
            self._encoded = self.source.encode().splitlines(keepends=True)
        start: int | None = getattr(node, "lineno", None)
        end: int | None = getattr(node, "end_lineno", None)
        if start is None or end is None or end > len(self._encoded):
            return ""
        first: int = getattr(node, "col_offset", 0)
        last: int = getattr(node, "end_col_offset", 0)
        if start == end:
            return self._encoded[start - 1][first:last].decode(errors="replace")
        parts = [self._encoded[start - 1][first:], *self._encoded[start : end - 1]]
        parts.append(self._encoded[end - 1][:last])
        return b"".join(parts).decode(errors="replace")

    def kind(self, expr: ast.expr) -> str:
        """An argument's kind (as `Argument.kind`), a plain name read through the last
        `name = value` before it in its scope (or the module): `x = jnp.ones(3); f(x)` ->
        "array". Still "name" when the value is not known (a parameter, a loop variable)."""
        found = _classify(self, expr)
        if found != "name" or not isinstance(expr, ast.Name):
            return found
        value = self._assigned_before(expr)
        return "name" if value is None else _classify(self, value)

    def _assigned_before(self, name: ast.Name) -> ast.expr | None:
        scope: ast.AST | None = self.parent(name)
        while scope is not None and not isinstance(
            scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module
        ):
            scope = self.parent(scope)
        for where in (scope, self.tree) if scope is not self.tree else (self.tree,):
            if where is None:
                continue
            body = (
                where.body
                if isinstance(where, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef)
                else []
            )
            best: ast.expr | None = None
            for statement in body:  # straight-line assignments of the scope's own body
                if statement.lineno >= name.lineno:
                    break
                if isinstance(statement, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name.id for t in statement.targets
                ):
                    best = statement.value if len(statement.targets) == 1 else None
            if best is not None:
                return best
        return None


def analyze(source: str) -> Model | None:
    """The model of a file, or None when it does not parse (mid-edit: say nothing)."""
    return _analyze_cached(source)


@lru_cache(maxsize=8)
def _analyze_cached(source: str) -> Model | None:
    return analyze_part(source, None)


def analyze_part(source: str, bindings: Mapping[str, str] | None) -> Model | None:
    """The model of `source` (not cached), names qualified through `bindings` when given (the
    imports of the file `source` is a part of); None when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    model = Model(source, tree, bindings)
    _build(model)
    return model


def _positional(node: FunctionNode) -> list[ast.arg]:
    return [*node.args.posonlyargs, *node.args.args]


def _is_method(model: Model, node: FunctionNode) -> bool:
    if model.scopes.enclosing_class(node) is None or isinstance(node, ast.Lambda):
        return False
    decorators = {model.qualify(d) or ast.unparse(d) for d in node.decorator_list}
    return "staticmethod" not in decorators and bool(_positional(node))


def _defaults(node: FunctionNode) -> set[str]:
    positional = _positional(node)
    with_default = positional[len(positional) - len(node.args.defaults) :]
    out = {a.arg for a in with_default}
    out |= {a.arg for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True) if d}
    return out


def _traced_params(applied: Applied, node: FunctionNode, method: bool) -> tuple[set[str], set[str]]:
    """(traced, static) parameter names under one transform."""
    positional = [a.arg for a in _positional(node)]
    keyword_only = [a.arg for a in node.args.kwonlyargs]
    defaults = _defaults(node)
    transform = applied.transform
    skip = applied.bound_positional
    if method and transform.form == "decorator" or method and transform.form == "partial-decorator":
        skip = max(skip, 1)  # `self` is not an array: a rule of its own says so
    static: set[str] = set(positional[: applied.bound_positional]) | set(applied.bound_keywords)
    if applied.explicit is not None:
        return set(applied.explicit), static
    if not transform.static_known:
        return set(), static
    count = len(positional)
    every = set(positional) | set(keyword_only)
    names_ok = set(transform.static_argnames or ()) <= every or node.args.kwarg is not None
    nums_ok = all(-count <= n < count for n in transform.static_argnums or ())
    if not (names_ok and nums_ok or node.args.vararg is not None):
        return set(), static  # JAX rejects the static spec first: a rule of its own says so
    for number in transform.static_argnums or ():
        index = number + count if number < 0 else number
        if 0 <= index < count:
            static.add(positional[index])
    static |= set(transform.static_argnames or ())
    if transform.api in (
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.hessian",
    ):
        call = transform.node if isinstance(transform.node, ast.Call) else None
        argnums_node = (
            next((k.value for k in call.keywords if k.arg == "argnums"), None) if call else None
        )
        argnums = literal_ints(argnums_node) if argnums_node is not None else (0,)
        if argnums is None:
            return set(), static
        wanted = {positional[skip + i] for i in argnums if 0 <= skip + i < count}
        return wanted - defaults - static, static
    if applied.in_axes_none is None:
        return set(), static
    unbatched = {positional[skip + i] for i in applied.in_axes_none if skip + i < count}
    traced = set(positional[skip:]) | set(keyword_only)
    return traced - static - defaults - unbatched, static


def _build(model: Model) -> None:
    applied = applied_transforms(model.nodes, model.scopes, model.bindings)
    by_node: dict[int, list[Applied]] = {}
    nodes: dict[int, FunctionNode] = {}
    for item in applied:
        by_node.setdefault(id(item.function), []).append(item)
        nodes[id(item.function)] = item.function
    built: dict[int, TracedFunction] = {}
    for _ in range(_PROPAGATION_ROUNDS + 1):
        for key in sorted(nodes, key=lambda k: _depth(model, nodes[k])):
            if key not in built:
                built[key] = _function(model, nodes[key], by_node[key], built)
        added = _propagate(model, built, by_node, nodes)
        if not added:
            break
    _add_closures(model, built)
    ordered = sorted(built.values(), key=lambda f: (f.node.lineno, f.node.col_offset))
    model.functions = tuple(ordered)
    model._by_node = {id(f.node): f for f in ordered}  # noqa: SLF001 - built here


def _depth(model: Model, node: ast.AST) -> int:
    return sum(1 for _ in model.scopes.scope_of(node))


def _enclosing(
    model: Model, node: ast.AST, built: Mapping[int, TracedFunction]
) -> TracedFunction | None:
    for scope in model.scopes.scope_of(node):
        found = built.get(id(scope))
        if found is not None:
            return found
    return None


def _function(
    model: Model, node: FunctionNode, applied: list[Applied], built: Mapping[int, TracedFunction]
) -> TracedFunction:
    method = _is_method(model, node)
    traced: set[str] = set()
    static: set[str] = set()
    for item in applied:
        t, s = _traced_params(item, node, method)
        traced |= t
        static |= s
    if method and any(i.bound_positional for i in applied):
        static.add(_positional(node)[0].arg)
    enclosing = _enclosing(model, node, built)
    abstract = any(
        TRANSFORMS[i.transform.api].abstract if i.transform.api in TRANSFORMS else True
        for i in applied
    )
    pallas = any(i.transform.api == "jax.experimental.pallas.pallas_call" for i in applied)
    return _assemble(model, node, applied, traced, static, enclosing, abstract, method, pallas)


def _assemble(
    model: Model,
    node: FunctionNode,
    applied: list[Applied],
    traced: set[str],
    static: set[str],
    enclosing: TracedFunction | None,
    abstract: bool,
    method: bool,
    pallas: bool,
) -> TracedFunction:
    positional = _positional(node)
    every = [*positional, *node.args.kwonlyargs]
    every += [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
    all_names = frozenset(a.arg for a in every)
    sources = {name: frozenset({name}) for name in traced}
    inherited = enclosing.traced_names if enclosing is not None and abstract else {}
    owner: ast.AST = node if not isinstance(node, ast.Lambda) else node.body
    bound = assignments(owner)
    env = traced_env(owner, sources, all_names - traced, inherited, model.bindings, bound)
    uses = _uses(model, node, owner, all_names, bound)
    defaults = _defaults(node)
    params = tuple(
        Param(
            name=a.arg,
            index=positional.index(a) if a in positional else None,
            traced=a.arg in traced,
            static=a.arg in static,
            has_default=a.arg in defaults,
            uses=frozenset(uses.get(a.arg, ())),
        )
        for a in every
    )
    name = node.name if not isinstance(node, ast.Lambda) else "<lambda>"
    function = TracedFunction(
        node=node,
        name=name,
        qualname=_qualname(model, node),
        params=params,
        transforms=tuple(i.transform for i in applied),
        abstract=abstract,
        is_method=method,
        pallas_kernel=pallas,
        enclosing=enclosing,
        traced_names=MappingProxyType(env),
    )
    sites = tuple(_call_sites(model, function, applied))
    return TracedFunction(**{**function.__dict__, "call_sites": sites})


def _qualname(model: Model, node: ast.AST) -> str:
    parts: list[str] = []
    current: ast.AST | None = node
    while current is not None and not isinstance(current, ast.Module):
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            parts.append(current.name)
        elif isinstance(current, ast.Lambda):
            parts.append("<lambda>")
        current = model.parent(current)
    return ".".join(reversed(parts))


def _uses(
    model: Model,
    node: FunctionNode,
    owner: ast.AST,
    names: frozenset[str],
    bound: dict[str, list[tuple[ast.expr | None, bool]]],
) -> dict[str, set[str]]:
    """How each parameter (directly or through names derived from it) is used."""
    sources = {n: frozenset({n}) for n in names}
    env = traced_env(owner, sources, frozenset(), {}, model.bindings, bound)
    uses: dict[str, set[str]] = {}

    walker: Iterator[ast.AST] = (
        walk_body(owner)
        if isinstance(node, ast.Lambda)
        else (n for s in node.body for n in (s, *walk_body(s)))
    )
    for part in walker:
        if isinstance(part, ast.If | ast.While | ast.IfExp | ast.Assert):
            _mark(env, uses, part.test, USE_BRANCH)
        elif isinstance(part, ast.Call):
            callee = model.qualify(part.func) or (
                part.func.id if isinstance(part.func, ast.Name) else ""
            )
            last = callee.rsplit(".", 1)[-1] if callee else ""
            attr = part.func.attr if isinstance(part.func, ast.Attribute) else ""
            if callee == "range":
                for arg in part.args:
                    _mark(env, uses, arg, USE_RANGE)
            elif last in _SHAPE_CALLS and callee.startswith("jax.") or attr == "reshape":
                for arg in part.args[:1] if attr != "reshape" else part.args:
                    _mark(env, uses, arg, USE_SHAPE)
                if last == "one_hot" and len(part.args) > 1:
                    _mark(env, uses, part.args[1], USE_SHAPE)
            for keyword in part.keywords:
                if keyword.arg in ("axis", "axes"):
                    _mark(env, uses, keyword.value, USE_AXIS)
                elif keyword.arg in ("shape", "num_classes", "size", "length", "num"):
                    _mark(env, uses, keyword.value, USE_SHAPE)
        elif isinstance(part, ast.Slice):
            for limit in (part.lower, part.upper, part.step):
                _mark(env, uses, limit, USE_INDEX)
    return uses


def _mark(
    env: Mapping[str, frozenset[str]], uses: dict[str, set[str]], expr: ast.expr | None, use: str
) -> None:
    for part in ast.walk(expr) if expr is not None else ():
        if isinstance(part, ast.Name) and part.id in env:
            for origin in env[part.id]:
                uses.setdefault(origin, set()).add(use)


def _classify(model: Model, node: ast.expr) -> str:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            return "bool"
        if value is None:
            return "none"
        return {int: "int", float: "float", str: "str", complex: "complex"}.get(
            type(value), "other"
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return _classify(model, node.operand)
    if isinstance(node, ast.JoinedStr):
        return "str"
    if isinstance(node, ast.List | ast.ListComp):
        return "list"
    if isinstance(node, ast.Tuple):
        return "tuple"
    if isinstance(node, ast.Dict | ast.DictComp):
        return "dict"
    if isinstance(node, ast.Set | ast.SetComp):
        return "set"
    if isinstance(node, ast.Name):
        return "name"
    if isinstance(node, ast.Call):
        callee = model.qualify(node.func) or ""
        if callee.startswith(("jax.numpy.", "jax.random.", "numpy.")) or callee == "jax.device_put":
            return "array"
    return "other"


def _call_sites(
    model: Model, function: TracedFunction, applied: list[Applied]
) -> Iterator[CallSite]:
    node = function.node
    if isinstance(node, ast.Lambda):
        return
    aliases = {a.alias for a in applied if a.alias}
    decorated = any(a.transform.form != "call" for a in applied) or any(
        a.transform.api == CALLED_FROM for a in applied
    )
    skip = 1 if function.is_method else 0
    candidates: list[ast.Call] = []
    for name in {function.name, *aliases}:
        candidates += model.calls_by_name.get(name, []) + model.calls_by_attr.get(name, [])
    candidates += model.jit_calls_by_target.get(function.name, [])
    for call in sorted(set(candidates), key=lambda c: (c.lineno, c.col_offset)):
        func = call.func
        through = None
        if isinstance(func, ast.Name):
            if func.id in aliases or (
                decorated
                and func.id == function.name
                and model.scopes.lookup(func.id, call) is node
            ):
                through = func.id
        elif isinstance(func, ast.Attribute) and (
            func.attr in aliases
            or (decorated and function.is_method and func.attr == function.name)
        ):
            through = ast.unparse(func)
        elif (
            isinstance(func, ast.Call)
            and call in model.jit_calls_by_target.get(function.name, ())
            and model.scopes.lookup(function.name, call) is node
        ):
            through = model.text(func)
        if through is not None:
            yield _site(model, call, node, skip, through)


def _site(model: Model, call: ast.Call, node: FunctionNode, skip: int, through: str) -> CallSite:
    positional = [a.arg for a in _positional(node)]
    arguments: list[Argument] = []
    for index, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        slot = index + skip
        param = positional[slot] if slot < len(positional) else None
        arguments.append(Argument(_classify(model, arg), model.text(arg), arg, index, None, param))
    names = {a.arg for a in [*_positional(node), *node.args.kwonlyargs]}
    for keyword in call.keywords:
        if keyword.arg is None:
            continue
        param = keyword.arg if keyword.arg in names else None
        kind = _classify(model, keyword.value)
        text = model.text(keyword.value)
        arguments.append(Argument(kind, text, keyword.value, None, keyword.arg, param))
    return CallSite(call, call.lineno - 1, call.col_offset, tuple(arguments), through)


def call_sites_of(model: Model, node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[CallSite]:
    """Plain calls `name(...)` of any function of the file (traced or not), by its name."""
    return [
        _site(model, call, node, 0, node.name)
        for call in model.calls_by_name.get(node.name, [])
        if isinstance(call.func, ast.Name) and model.scopes.lookup(node.name, call) is node
    ]


def _propagate(
    model: Model,
    built: dict[int, TracedFunction],
    by_node: dict[int, list[Applied]],
    nodes: dict[int, FunctionNode],
) -> bool:
    """A function of this file called with traced arguments from a traced one is traced too."""
    added = False
    for caller in list(built.values()):
        if not caller.abstract:
            continue
        values = model.values(caller)
        for part in model.body(caller):
            if not isinstance(part, ast.Call) or not isinstance(part.func, ast.Name):
                continue
            callee = model.scopes.lookup(part.func.id, part)
            if callee is None or isinstance(callee, ast.Lambda) or id(callee) in nodes:
                continue
            if any(isinstance(a, ast.Starred) for a in part.args) or any(
                k.arg is None for k in part.keywords
            ):
                continue
            if _is_method(model, callee):
                continue
            positional = [a.arg for a in _positional(callee)]
            traced_positions = [i for i, a in enumerate(part.args) if values.traced(a)]
            traced_names = {
                k.arg for k in part.keywords if k.arg is not None and values.traced(k.value)
            }
            if not traced_positions and not traced_names:
                continue
            transform = Transform(CALLED_FROM, part, "caller")
            traced = frozenset(positional[i] for i in traced_positions if i < len(positional))
            applied = Applied(
                callee, transform, 0, frozenset(), frozenset(), None, traced | traced_names
            )
            by_node.setdefault(id(callee), []).append(applied)
            nodes[id(callee)] = callee
            added = True
    return added


def _add_closures(model: Model, built: dict[int, TracedFunction]) -> None:
    """Functions nested in a traced function see its traced names (closures), params untraced."""
    pending = sorted(built.values(), key=lambda f: _depth(model, f.node))
    while pending:
        outer = pending.pop(0)
        for part in model.body(outer):
            if not isinstance(part, FunctionNode) or id(part) in built:
                continue
            transform = Transform(CLOSURE, part, "closure")
            applied = [Applied(part, transform, 0, frozenset(), frozenset(), None)]
            inner = _assemble(
                model,
                part,
                applied,
                set(),
                set(),
                outer,
                outer.abstract,
                False,
                outer.pallas_kernel,
            )
            built[id(part)] = inner
            pending.append(inner)
