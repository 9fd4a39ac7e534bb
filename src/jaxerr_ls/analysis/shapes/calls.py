"""Calls in the abstract interpreter: JAX's functions (asked of the oracle), this file's
functions (evaluated per call), and the transforms and loops that call a body for JAX."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from jaxerr_ls.analysis.shapes.avals import (
    JAX_MODULES,
    Arr,
    Dict,
    DType,
    Func,
    FunctionNode,
    JaxFn,
    Py,
    Seq,
    Val,
    Wrap,
    annotation_value,
    from_spec,
    key_text,
    spec,
    traced,
)

if TYPE_CHECKING:
    from jaxerr_ls.analysis.shapes.evaluate import Evaluator, Frame

_METADATA = frozenset(
    {"jax.numpy.shape": "shape", "jax.numpy.ndim": "ndim", "jax.numpy.size": "size"}.items()
)
_METHODS = frozenset(
    [
        "reshape",
        "astype",
        "sum",
        "mean",
        "max",
        "min",
        "prod",
        "std",
        "var",
        "transpose",
        "squeeze",
        "ravel",
        "flatten",
        "dot",
        "clip",
        "cumsum",
        "cumprod",
        "argmax",
        "argmin",
        "any",
        "all",
        "round",
        "conj",
        "swapaxes",
        "take",
        "sort",
        "argsort",
        "repeat",
        "diagonal",
    ]
)
# NumPy's array makers: the oracle makes small ones for real (a NumPy array handed to JAX).
_NUMPY = frozenset(
    [
        "numpy.zeros",
        "numpy.ones",
        "numpy.empty",
        "numpy.full",
        "numpy.arange",
        "numpy.linspace",
        "numpy.eye",
        "numpy.identity",
        "numpy.array",
        "numpy.asarray",
        "numpy.random.randn",
        "numpy.random.rand",
        "numpy.random.normal",
        "numpy.random.uniform",
        "numpy.random.randint",
        "numpy.random.random",
        "numpy.random.standard_normal",
    ]
)
_LOOPS = frozenset(
    {"jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.cond", "jax.lax.switch"}
)
_WRAPS = {
    "jax.jit": "jit",
    "jax.vmap": "vmap",
    "jax.grad": "grad",
    "jax.value_and_grad": "value_and_grad",
    "jax.checkpoint": "checkpoint",
}
_DEPTH = 4
_CONTEXTS = 6


class Calls:
    def __init__(self, evaluator: Evaluator) -> None:
        self.ev = evaluator
        self.contexts: dict[int, set[str]] = {}
        self.active: set[int] = set()

    # -- definitions --
    def defined(self, node: ast.FunctionDef | ast.AsyncFunctionDef, frame: Frame) -> Val:
        """The value a `def` binds: the function under the transforms its decorators apply."""
        wraps: list[Wrap] = []
        for decorator in reversed(node.decorator_list):
            wrap = self.wrap_of(decorator, frame)
            if wrap is None:
                return None  # a decorator we cannot read: calls of it are not evaluated
            wraps.append(wrap)
        return Func(node, tuple(wraps), frame if frame.depth > 0 else None)

    def wrap_of(self, decorator: ast.expr, frame: Frame) -> Wrap | None:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        qualified = self.ev.qualify(target, frame)
        keywords = decorator.keywords if isinstance(decorator, ast.Call) else []
        args = decorator.args if isinstance(decorator, ast.Call) else []
        if qualified == "functools.partial" and args:
            qualified = self.ev.qualify(args[0], frame)
            args = args[1:]
        elif isinstance(decorator, ast.Call):
            return None  # jax.jit(...) as a decorator factory is not a spelling JAX has
        if qualified not in _WRAPS or args:
            return None
        return self.wrap(_WRAPS[qualified], keywords, frame)

    def wrap(self, api: str, keywords: list[ast.keyword], frame: Frame) -> Wrap | None:
        options: list[tuple[str, Any]] = []
        for keyword in keywords:
            if keyword.arg is None:
                return None
            value = self.ev.expr(keyword.value, frame)
            text = spec(value)
            if text is None or keyword.arg not in _KNOWN_OPTIONS.get(api, ()):
                return None
            options.append((keyword.arg, text if keyword.arg in _SPECS else _plain(value)))
        return Wrap(api, tuple(options))

    def standalone(self, node: ast.FunctionDef | ast.AsyncFunctionDef, frame: Frame) -> None:
        """A module function's body on its own: parameters from annotations, else unknown."""
        args = {
            a.arg: annotation_value(self.ev.model, a.annotation)
            for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        }
        self.body(node, args, frame)

    # -- calls --
    def call(self, node: ast.Call, frame: Frame) -> Val:  # noqa: C901, PLR0911, PLR0912
        ev = self.ev
        func = node.func
        if isinstance(func, ast.Attribute) and ev.qualify(func, frame) is None:
            base = ev.expr(func.value, frame)
            if isinstance(base, Arr) and not base.numpy:
                return self.method(node, func.attr, base, frame)
        qualified = ev.qualify(func, frame) if not isinstance(func, ast.Call) else None
        if qualified in _WRAPS and node.args:
            inner = ev.expr(node.args[0], frame)
            self.arguments(node.args[1:], node.keywords, frame)
            wrap = self.wrap(_WRAPS[qualified], node.keywords, frame)
            if wrap is None:
                return None
            if isinstance(inner, JaxFn):
                return JaxFn(inner.name, (*inner.wraps, wrap))
            if not isinstance(inner, Func):
                return None
            return Func(inner.node, (*inner.wraps, wrap), inner.closure)
        attribute = dict(_METADATA).get(qualified or "")
        if attribute is not None and len(node.args) == 1 and not node.keywords:
            return ev.attribute(ast.Attribute(node.args[0], attribute, ast.Load()), frame)
        if qualified in _LOOPS:
            from jaxerr_ls.analysis.shapes.loops import loop

            return loop(self, node, qualified, frame)
        if qualified == "jax.ShapeDtypeStruct":
            return self.struct(node, frame)
        args, kwargs = self.arguments(node.args, node.keywords, frame)
        if qualified is not None and (qualified.startswith(JAX_MODULES) or qualified in _NUMPY):
            return self.jax_call(node, qualified, args, kwargs)
        if qualified is not None:
            return None
        target = (
            ev.expr(func, frame) if not isinstance(func, ast.Name) else ev.lookup(func.id, frame)
        )
        if isinstance(target, Func | JaxFn) and args is not None and kwargs is not None:
            return self.invoke(node, target, args, kwargs, frame)
        return None

    def arguments(
        self, args: list[ast.expr], keywords: list[ast.keyword], frame: Frame
    ) -> tuple[list[Val] | None, dict[str, Val] | None]:
        values: list[Val] | None = []
        for arg in args:
            value = self.ev.expr(arg.value if isinstance(arg, ast.Starred) else arg, frame)
            if isinstance(arg, ast.Starred):
                values = None
            elif values is not None:
                values.append(value)
        named: dict[str, Val] | None = {}
        for keyword in keywords:
            value = self.ev.expr(keyword.value, frame)
            if keyword.arg is None:
                named = None
            elif named is not None:
                named[keyword.arg] = value
        return values, named

    def jax_call(
        self, node: ast.Call, name: str, args: list[Val] | None, kwargs: dict[str, Val] | None
    ) -> Val:
        if args is None or kwargs is None:
            return None
        specs = [spec(a) for a in args]
        named = [[k, spec(v)] for k, v in kwargs.items()]
        if any(s is None for s in specs) or any(n[1] is None for n in named):
            return None
        query = {"kind": "call", "name": name, "args": specs, "kwargs": named}
        return self.ev.result(node, query, [*args, *kwargs.values()])

    def method(self, node: ast.Call, name: str, base: Arr, frame: Frame) -> Val:
        args, kwargs = self.arguments(node.args, node.keywords, frame)
        if name not in _METHODS or args is None or kwargs is None:
            return None
        specs = [spec(base), *(spec(a) for a in args)]
        named = [[k, spec(v)] for k, v in kwargs.items()]
        if any(s is None for s in specs) or any(n[1] is None for n in named):
            return None
        query = {"kind": "method", "name": name, "args": specs, "kwargs": named}
        return self.ev.result(node, query, [base, *args, *kwargs.values()])

    def struct(self, node: ast.Call, frame: Frame) -> Val:
        args, kwargs = self.arguments(node.args, node.keywords, frame)
        if args is None or kwargs is None or len(args) != 2 or kwargs:
            return None
        shape, dtype = args
        if not isinstance(shape, Seq) or not isinstance(dtype, DType):
            return None
        dims = [d.value for d in shape.items if isinstance(d, Py)]
        if len(dims) != len(shape.items) or not all(type(d) is int for d in dims):
            return None
        return Arr(tuple(int(d) for d in dims if isinstance(d, int)), dtype.name)

    # -- this file's functions --
    def invoke(
        self,
        node: ast.Call,
        func: Func | JaxFn,
        args: list[Val],
        kwargs: dict[str, Val],
        frame: Frame,
        traced_body: bool = False,
    ) -> Val:
        if not func.wraps:
            if isinstance(func, JaxFn):
                return self.jax_call(node, func.name, args, kwargs)
            return self.apply(func, args, kwargs, frame, traced_body)
        wrap = func.wraps[-1]
        inner: Func | JaxFn = (
            Func(func.node, func.wraps[:-1], func.closure)
            if isinstance(func, Func)
            else JaxFn(func.name, func.wraps[:-1])
        )
        if wrap.api == "checkpoint":
            return self.invoke(node, inner, args, kwargs, frame, traced_body)
        if wrap.api == "jit":
            static = _static(func.node, wrap) if isinstance(func, Func) else _static_numbers(wrap)
            if static is None:
                return None
            names = _parameters(func.node) if isinstance(func, Func) else []
            passed = [
                a if (k < len(names) and names[k] in static) or str(k) in static else traced(a)
                for k, a in enumerate(args)
            ]
            named = {k: v if k in static else traced(v) for k, v in kwargs.items()}
            before, self.ev.tracing = self.ev.tracing, True
            try:
                out = self.invoke(node, inner, passed, named, frame, True)
            finally:
                self.ev.tracing = before
            # What a jitted function returns is arrays: tracers inside another trace.
            return traced(out, self.ev.tracing)
        if kwargs:
            return None
        from jaxerr_ls.analysis.shapes.loops import differentiate, vectorize

        if wrap.api == "vmap":
            return vectorize(self, node, inner, wrap, args, frame)
        return differentiate(self, node, inner, wrap, args, frame)

    def apply(
        self,
        func: Func,
        args: list[Val],
        kwargs: dict[str, Val],
        frame: Frame,
        traced_body: bool = False,
    ) -> Val:
        """The value a call of this file's function returns, its body evaluated with these
        arguments (each distinct argument list once per round, a few at most)."""
        bound = _bind_arguments(self.ev, func.node, args, kwargs, frame)
        if bound is None:
            return None
        return self.body(func, bound, frame, traced_body)

    def body(
        self,
        func: Func | FunctionNode,
        args: dict[str, Val],
        frame: Frame,
        traced_body: bool = False,
    ) -> Val:
        from jaxerr_ls.analysis.shapes.evaluate import Frame as NewFrame

        node = func.node if isinstance(func, Func) else func
        closure = func.closure if isinstance(func, Func) else None
        traced_body = traced_body or frame.traced or self.ev.tracing
        key = key_text(args, traced_body)
        if id(node) in self.active or frame.depth >= _DEPTH:
            return None
        seen = self.contexts.setdefault(id(node), set())
        if key not in seen and len(seen) >= _CONTEXTS:
            return None
        seen.add(key)
        self.active.add(id(node))
        before, self.ev.tracing = self.ev.tracing, traced_body
        try:
            inner = NewFrame(dict(args), frame.depth + 1, outer=closure, traced=traced_body)
            if isinstance(node, ast.Lambda):
                return self.ev.expr(node.body, inner)
            self.ev.block(node.body, inner)
        finally:
            self.active.discard(id(node))
            self.ev.tracing = before
        returns = inner.returns
        falls_off = not node.body or not isinstance(node.body[-1], ast.Return | ast.Raise)
        if falls_off:
            returns = [*returns, Py(None)]
        first = returns[0] if returns else None
        return first if all(r == first for r in returns) else None


_SPECS = frozenset({"in_axes", "argnums", "has_aux"})
_KNOWN_OPTIONS = {
    "jit": ("static_argnums", "static_argnames", "donate_argnums", "donate_argnames"),
    "vmap": ("in_axes",),
    "grad": ("argnums", "has_aux"),
    "value_and_grad": ("argnums", "has_aux"),
    "checkpoint": (),
}


def _plain(value: Val) -> Any:
    if isinstance(value, Py):
        return value.value
    if isinstance(value, Seq):
        return tuple(_plain(v) for v in value.items)
    if isinstance(value, Dict):
        return tuple((k, _plain(v)) for k, v in value.items)
    return None


def _parameters(node: FunctionNode) -> list[str]:
    return [a.arg for a in [*node.args.posonlyargs, *node.args.args]]


def _static(node: FunctionNode, wrap: Wrap) -> set[str] | None:
    names = _parameters(node)
    numbers = wrap.option("static_argnums", ())
    numbers = (numbers,) if isinstance(numbers, int) else numbers
    found: set[str] = set()
    for number in numbers or ():
        if not isinstance(number, int) or not -len(names) <= number < len(names):
            return None
        found.add(names[number])
    argnames = wrap.option("static_argnames", ())
    argnames = (argnames,) if isinstance(argnames, str) else argnames
    found |= {n for n in argnames or () if isinstance(n, str)}
    return found


def _static_numbers(wrap: Wrap) -> set[str] | None:
    """A JAX function's static arguments by position ("0", "1"...); names are not known."""
    if wrap.option("static_argnames"):
        return None
    numbers = wrap.option("static_argnums", ())
    numbers = (numbers,) if isinstance(numbers, int) else numbers
    if not all(isinstance(n, int) and n >= 0 for n in numbers or ()):
        return None
    return {str(n) for n in numbers or ()}


def _bind_arguments(
    ev: Evaluator, node: FunctionNode, args: list[Val], kwargs: dict[str, Val], frame: Frame
) -> dict[str, Val] | None:
    """parameter -> value, as Python binds them; None when the call does not fit."""
    positional = _parameters(node)
    a = node.args
    bound: dict[str, Val] = {}
    if len(args) > len(positional) and a.vararg is None:
        return None
    for name, value in zip(positional, args, strict=False):
        bound[name] = value
    if a.vararg is not None:
        bound[a.vararg.arg] = None
    keyword_names = {x.arg for x in a.kwonlyargs} | set(positional[len(a.posonlyargs) :])
    for name, value in kwargs.items():
        if name in bound or (name not in keyword_names and a.kwarg is None):
            return None
        bound[name] = value
    if a.kwarg is not None:
        bound[a.kwarg.arg] = None
    defaults = dict(zip(positional[len(positional) - len(a.defaults) :], a.defaults, strict=True))
    defaults.update({k.arg: d for k, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d})
    for name in [*positional, *(x.arg for x in a.kwonlyargs)]:
        if name not in bound:
            if name not in defaults:
                return None
            default = defaults[name]
            bound[name] = ev.expr(default, frame) if isinstance(default, ast.Constant) else None
    return bound


__all__ = ["Calls", "from_spec"]
