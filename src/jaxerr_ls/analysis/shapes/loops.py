"""Bodies JAX calls: `lax.scan`/`fori_loop`/`while_loop` (their carries), `lax.cond`/`switch`
(their branches), `vmap` (with `in_axes`) and `grad`/`value_and_grad` (their outputs).

Each is asked twice: first with no body output, which gives the values JAX passes the body (and
JAX's checks of the arguments); then, once the body was evaluated with them, with the body's
output, which gives JAX's checks of the output (a carry that changes type, branches that differ,
a non-scalar loss) or the result."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from jaxerr_ls.analysis.shapes.avals import (
    Arr,
    Func,
    FunctionNode,
    JaxFn,
    Py,
    Seq,
    Val,
    Wrap,
    from_spec,
    mark,
    spec,
    traced,
)

if TYPE_CHECKING:
    from jaxerr_ls.analysis.shapes.calls import Calls
    from jaxerr_ls.analysis.shapes.evaluate import Frame

_ARGUMENTS = {
    "jax.lax.scan": ("f", "init", "xs", "length", "reverse", "unroll"),
    "jax.lax.fori_loop": ("lower", "upper", "body_fun", "init_val"),
    "jax.lax.while_loop": ("cond_fun", "body_fun", "init_val"),
}


def _names(node: FunctionNode) -> list[str]:
    return [a.arg for a in [*node.args.posonlyargs, *node.args.args]]


def _run(calls: Calls, func: Val, values: list[Val], frame: Frame) -> Val:
    """The output of a body JAX calls with `values` (positional)."""
    if not isinstance(func, Func) or func.wraps:
        return None
    names = _names(func.node)
    if len(names) != len(values) or func.node.args.vararg is not None:
        return None
    bound = dict(zip(names, values, strict=True))
    return calls.body(func, bound, frame, True)


def _inner(answer: Any, count: int) -> list[Val] | None:
    if not isinstance(answer, dict) or not isinstance(answer.get("in"), list):
        return None
    found = [from_spec(s) for s in answer["in"]]
    return found if len(found) == count else None


def loop(calls: Calls, node: ast.Call, api: str, frame: Frame) -> Val:
    ev = calls.ev
    args, kwargs = calls.arguments(node.args, node.keywords, frame)
    if args is None or kwargs is None:
        return None
    if api in ("jax.lax.cond", "jax.lax.switch"):
        return _branches(calls, node, api, args, kwargs, frame)
    order = _ARGUMENTS[api]
    bound: dict[str, Val] = dict(zip(order, args, strict=False))
    if len(args) > len(order) or any(k not in order or k in bound for k in kwargs):
        return None
    bound.update(kwargs)
    if api == "jax.lax.scan":
        body = bound.get("f")
        init, xs = spec(bound.get("init")), spec(bound.get("xs", Py(None)))
        length, reverse = bound.get("length", Py(None)), bound.get("reverse", Py(False))
        if not isinstance(length, Py) or not isinstance(reverse, Py) or init is None or xs is None:
            return None
        query: dict[str, Any] = {
            "kind": "scan",
            "init": init,
            "xs": xs,
            "length": length.value,
            "reverse": bool(reverse.value),
        }
        count = 2
        inputs = [bound.get("init"), bound.get("xs")]
    elif api == "jax.lax.fori_loop":
        body = bound.get("body_fun")
        parts = [spec(bound.get("lower")), spec(bound.get("upper")), spec(bound.get("init_val"))]
        if any(p is None for p in parts):
            return None
        query = {"kind": "fori", "bounds": parts[:2], "init": parts[2]}
        count = 2
        inputs = [bound.get("lower"), bound.get("upper"), bound.get("init_val")]
    else:
        body = bound.get("body_fun")
        init = spec(bound.get("init_val"))
        if init is None:
            return None
        query = {"kind": "while", "init": init}
        count = 1
        inputs = [bound.get("init_val")]
    if not isinstance(body, Func) or body.wraps:
        return None
    query["names"] = _names(body.node)
    first = ev.ask(node, query, inputs)
    values = _inner(first, count)
    if values is None:
        return None
    out = _run(calls, body, values, frame)
    if api == "jax.lax.scan":
        if isinstance(out, Seq) and out.kind == "tuple" and len(out.items) == 2:
            pair = [spec(out.items[0]), spec(out.items[1])]
            if pair[0] is None or pair[1] is None:
                return None
            query = {**query, "out": pair}
        else:  # not a pair: JAX says so
            whole = spec(out)
            if whole is None:
                return None
            query = {**query, "whole": whole}
    else:
        made = spec(out)
        if made is None:
            return None
        query = {**query, "out": made}
    return ev.result(node, query, [*inputs, out])


def _branches(
    calls: Calls, node: ast.Call, api: str, args: list[Val], kwargs: dict[str, Val], frame: Frame
) -> Val:
    """`lax.cond(pred, true_fun, false_fun, *operands)`, `lax.switch(index, branches, *ops)`."""
    if kwargs or len(args) < 2:
        return None
    if api == "jax.lax.cond":
        if len(args) < 3 or not all(isinstance(f, Func) for f in args[1:3]):
            return None
        branches, operands = list(args[1:3]), args[3:]
    else:
        options = args[1]
        if not isinstance(options, Seq) or not all(isinstance(f, Func) for f in options.items):
            return None
        branches, operands = list(options.items), args[2:]
    passed = [traced(o) for o in operands]
    outs = [_run(calls, f, passed, frame) for f in branches]
    specs = [spec(o) for o in outs]
    if any(s is None for s in specs):
        return None
    # The predicate's value does not change what JAX checks of the branches: a stand-in
    # scalar when it is not known (its own errors are other rules').
    pred = spec(args[0])
    if pred is None or not isinstance(args[0], Arr | Py):
        pred = {"a": [[], "bool" if api == "jax.lax.cond" else "int32", False]}
    operand_specs = [spec(o) for o in passed]
    if any(s is None for s in operand_specs):
        operand_specs = []
    query = {
        "kind": "cond" if api == "jax.lax.cond" else "switch",
        "pred": pred,
        "operands": operand_specs,
        "outs": specs,
    }
    return calls.ev.result(node, query, [*passed, *outs])


def vectorize(
    calls: Calls, node: ast.Call, inner: Func | JaxFn, wrap: Wrap, args: list[Val], frame: Frame
) -> Val:
    specs = [spec(a) for a in args]
    if any(s is None for s in specs):
        return None
    query: dict[str, Any] = {
        "kind": "vmap",
        "args": specs,
        "in_axes": wrap.option("in_axes", {"py": 0}),
    }
    if isinstance(inner, JaxFn):
        if inner.wraps:
            return None
        return calls.ev.result(node, {**query, "fn": inner.name}, args)
    query["names"] = _names(inner.node)
    first = calls.ev.ask(node, query, args)
    values = _inner(first, len(args))
    if values is None:
        return None
    out = calls.invoke(node, inner, [mark(v, True) for v in values], {}, frame, True)
    made = spec(out)
    if made is None:
        return None
    return calls.ev.result(node, {**query, "out": made}, [*args, out])


def differentiate(
    calls: Calls, node: ast.Call, inner: Func | JaxFn, wrap: Wrap, args: list[Val], frame: Frame
) -> Val:
    passed = [traced(a, _tracer_in(a)) for a in args]
    specs = [spec(a) for a in passed]
    if any(s is None for s in specs):
        return None
    query: dict[str, Any] = {
        "kind": "grad",
        "api": wrap.api,
        "args": specs,
        "argnums": wrap.option("argnums", {"py": 0}),
        "has_aux": bool((wrap.option("has_aux") or {}).get("py")),
    }
    if isinstance(inner, JaxFn):
        if inner.wraps:
            return None
        return calls.ev.result(node, {**query, "fn": inner.name}, passed)
    out = calls.invoke(node, inner, passed, {}, frame)
    made = spec(out)
    if made is None:
        return None
    query = {**query, "out": made, "names": _names(inner.node)}
    return calls.ev.result(node, query, [*passed, out])


def _tracer_in(value: Val) -> bool:
    """grad's values stay as concrete as they were (a JVP tracer of a concrete value)."""
    return isinstance(value, Arr) and value.tracer
