"""The shape oracle's worker: run by the user's interpreter (`python worker.py`), it answers
batches of queries by evaluating only JAX's own functions on `jax.ShapeDtypeStruct`s
(`jax.eval_shape`). It never imports jaxerr_ls and never runs the user's code: a query names a
function of `jax.numpy`, `jax.lax`, `jax.nn`, `jax.random`, `jax.scipy` (or an operator, an array
method, a transform) and gives its arguments as specs; the bodies given to `lax.scan`, `cond`,
`vmap`, `grad` are made here, returning zeros of the types the analysis read from the user's body.

Protocol: one JSON line in, a list of queries; one JSON line out, a list of results, in order.
Spec: {"a": [shape, dtype, weak]} an array, {"py": v} a Python literal, {"t": [...]} a tuple,
{"l": [...]} a list, {"d": [[key, spec], ...]} a dict, {"dt": name} a dtype, {"sl": [a, b, c]} a
slice, {"el": 1} Ellipsis, {"u": 1} unknown (the call is not evaluated).
Result: {"ok": spec} | {"err": [class name, message]} | {"no": reason}.
"""

import json
import operator
import sys

_MODULES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.nn.",
    "jax.random.",
    "jax.scipy.",
    "jax.image.",
    "jax.ops.",
)
# Never called even under eval_shape: they read or write files, print, or call back into Python.
_DENY = ("load", "save", "file", "txt", "print", "callback", "debug", "io_", "device_put")
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
_ATTRS = frozenset({"T", "mT", "real", "imag"})
_BINOPS = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
    "matmul": operator.matmul,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "eq": operator.eq,
    "ne": operator.ne,
    "lshift": operator.lshift,
    "rshift": operator.rshift,
}


_IMPLS = ("threefry2x32", "rbg", "unsafe_rbg", "philox4x32", "threefry4x32", "philox2x32")


# NumPy's array makers, run for real (not traced) when the array is small: a NumPy array the
# code makes and hands to JAX.
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
_NUMPY_LIMIT = 1 << 20  # elements


_TYPES = {"int": int, "float": float, "bool": bool, "complex": complex}


class Unknown(Exception):
    """The query cannot be evaluated here (not an error of the user's code)."""


def main():
    import jax
    import jax.numpy as jnp

    state = {"jax": jax, "jnp": jnp, "keys": {}}
    out = sys.stdout
    out.write(json.dumps({"ready": jax.__version__}) + "\n")
    out.flush()
    for line in sys.stdin:
        try:
            queries = json.loads(line)
        except ValueError:
            break
        results = []
        for query in queries:
            try:
                results.append(answer(state, query))
            except Unknown as exc:
                results.append({"no": str(exc)})
            except Exception as exc:  # noqa: BLE001 - reported, never raised
                results.append({"no": f"{type(exc).__name__}: {exc}"[:300]})
        out.write(json.dumps(results) + "\n")
        out.flush()


def _dtype(state, name):
    jax, jnp = state["jax"], state["jnp"]
    if name.startswith("key<"):
        if not state["keys"]:
            for impl in _IMPLS:
                try:
                    dtype = jax.random.key(0, impl=impl).dtype
                except Exception:  # noqa: BLE001, S112 - not in this release
                    continue
                state["keys"].setdefault(str(dtype), dtype)
        found = state["keys"].get(name)
        if found is None:
            raise Unknown(f"key type {name}")
        return found
    return jnp.dtype(name)


class Leaves:
    """The arrays of a query's specs: their structs, and the tracers standing for them."""

    def __init__(self, state):
        self.state = state
        self.structs = []

    def add(self, spec):
        shape, dtype, weak = spec["a"]
        struct = self.state["jax"].ShapeDtypeStruct(
            tuple(shape), _dtype(self.state, dtype), weak_type=bool(weak)
        )
        self.structs.append(struct)
        return len(self.structs) - 1


def _build(spec, leaves):
    """A spec as a template: arrays become ("leaf", n), the rest Python values."""
    if "a" in spec:
        return ("leaf", leaves.add(spec))
    if "py" in spec:
        return ("py", spec["py"])
    if "c" in spec:
        return ("py", complex(*spec["c"]))
    if "t" in spec:
        return ("t", [_build(s, leaves) for s in spec["t"]])
    if "l" in spec:
        return ("l", [_build(s, leaves) for s in spec["l"]])
    if "d" in spec:
        return ("d", [(k, _build(s, leaves)) for k, s in spec["d"]])
    if "dt" in spec:
        return ("py", _dtype(leaves.state, spec["dt"]))
    if "ty" in spec:
        return ("py", _TYPES[spec["ty"]])
    if "sl" in spec:
        return ("sl", [_build(s, leaves) for s in spec["sl"]])
    if "el" in spec:
        return ("py", Ellipsis)
    raise Unknown("unknown value")


def _fill(template, args):
    kind, value = template
    if kind == "leaf":
        return args[value]
    if kind == "py":
        return value
    if kind == "t":
        return tuple(_fill(t, args) for t in value)
    if kind == "l":
        return [_fill(t, args) for t in value]
    if kind == "d":
        return {k: _fill(t, args) for k, t in value}
    if kind == "sl":
        return slice(*(_fill(t, args) for t in value))
    raise Unknown(kind)


def _zeros(state, spec):
    """A value of the spec's type made from zeros (what a body we stand in for returns)."""
    jnp = state["jnp"]
    if "a" in spec:
        shape, dtype, weak = spec["a"]
        if dtype.startswith("key<"):
            jax = state["jax"]
            impl = _dtype(state, dtype)._impl if hasattr(_dtype(state, dtype), "_impl") else None
            keys = jax.random.key(0, impl=impl)
            return jnp.broadcast_to(keys, tuple(shape))
        value = jnp.zeros(tuple(shape), _dtype(state, dtype))
        if weak:
            value = (
                state["jax"].lax._convert_element_type(value, weak_type=True)
                if hasattr(state["jax"].lax, "_convert_element_type")
                else value
            )
        return value
    if "py" in spec:
        return spec["py"]
    if "c" in spec:
        return complex(*spec["c"])
    if "t" in spec:
        return tuple(_zeros(state, s) for s in spec["t"])
    if "l" in spec:
        return [_zeros(state, s) for s in spec["l"]]
    if "d" in spec:
        return {k: _zeros(state, s) for k, s in spec["d"]}
    raise Unknown("unknown output")


def _spec(state, value):
    jax = state["jax"]
    if isinstance(value, tuple):
        return {"t": [_spec(state, v) for v in value]}
    if isinstance(value, list):
        return {"l": [_spec(state, v) for v in value]}
    if isinstance(value, dict):
        return {"d": [[k, _spec(state, v)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"py": value}
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return {
            "a": [list(value.shape), str(value.dtype), bool(getattr(value, "weak_type", False))]
        }
    if isinstance(value, jax.core.Tracer) or hasattr(value, "aval"):
        aval = value.aval
        return {"a": [list(aval.shape), str(aval.dtype), bool(aval.weak_type)]}
    raise Unknown(f"output {type(value).__name__}")


def _tree_avals(state, value):
    """The spec of what a body receives: containers kept, arrays by their abstract type."""
    if isinstance(value, tuple):
        return {"t": [_tree_avals(state, v) for v in value]}
    if isinstance(value, list):
        return {"l": [_tree_avals(state, v) for v in value]}
    if isinstance(value, dict):
        return {"d": [[k, _tree_avals(state, v)] for k, v in value.items()]}
    if value is None:
        return {"py": None}
    aval = getattr(value, "aval", None)
    if aval is None or not hasattr(aval, "shape"):
        raise Unknown(f"input {type(value).__name__}")
    return {"a": [list(aval.shape), str(aval.dtype), bool(getattr(aval, "weak_type", False))]}


def _function(name):
    if not name.startswith(_MODULES) or any(d in name.rsplit(".", 1)[-1] for d in _DENY):
        raise Unknown(f"not a JAX function: {name}")
    module, _, attr = name.rpartition(".")
    import importlib

    try:
        target = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise Unknown(str(exc)) from None
    if not callable(target):
        raise Unknown("not callable")
    return target


def _named(names, body):
    """`body(*args)` under the user's parameter names (they appear in JAX's messages)."""
    names = [n for n in names if n.isidentifier()]
    if not names:
        return body
    params = ", ".join(names)
    scope = {"_body": body}
    exec(f"def _f({params}):\n    return _body({params})\n", scope)  # noqa: S102 - our text
    return scope["_f"]


def answer(state, query):
    state["jax"]
    kind = query["kind"]
    leaves = Leaves(state)
    if kind == "call" and query["name"] in _NUMPY:
        return _numpy(query)
    if kind in ("call", "method", "binop", "index", "attr"):
        args = _build({"t": query.get("args", [])}, leaves)
        kwargs = _build({"d": query.get("kwargs", [])}, leaves)
        if kind == "call":
            target = _function(query["name"])
        elif kind == "binop":
            target = _BINOPS[query["name"]]
        elif kind == "index":
            target = operator.getitem
        elif kind == "attr":
            if query["name"] not in _ATTRS:
                raise Unknown("attribute")
            target = lambda x: getattr(x, query["name"])  # noqa: E731
        else:
            if query["name"] not in _METHODS:
                raise Unknown("method")
            target = lambda x, *a, **k: getattr(x, query["name"])(*a, **k)  # noqa: E731

        def run(*arrays):
            return target(*_fill(args, arrays), **_fill(kwargs, arrays))

        return _evaluate(state, run, leaves)
    if kind in TEMPLATES:
        return TEMPLATES[kind](state, query, leaves)
    raise Unknown(kind)


def _numpy(query):
    import importlib

    def plain(spec):
        if "py" in spec:
            return spec["py"]
        if "t" in spec or "l" in spec:
            return [plain(s) for s in spec.get("t", spec.get("l"))]
        if "dt" in spec:
            return spec["dt"]
        raise Unknown("not a literal")

    args = [plain(a) for a in query.get("args", [])]
    kwargs = {k: plain(v) for k, v in query.get("kwargs", [])}
    size = 1
    for value in [*args, *kwargs.values()]:
        for number in value if isinstance(value, list) else [value]:
            if isinstance(number, int) and not isinstance(number, bool):
                size *= max(abs(number), 1)
    if size > _NUMPY_LIMIT:
        raise Unknown("too large to make")
    module, _, attr = query["name"].rpartition(".")
    target = getattr(importlib.import_module(module), attr)
    try:
        made = target(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - NumPy's own error: not predicted
        raise Unknown(f"numpy: {exc}") from None
    if not hasattr(made, "shape"):
        raise Unknown("not an array")
    return {"ok": {"a": [list(made.shape), str(made.dtype), False]}, "numpy": True}


def _evaluate(state, run, leaves):
    try:
        out = state["jax"].eval_shape(run, *leaves.structs)
    except Unknown:
        raise
    except Exception as exc:  # noqa: BLE001 - the error JAX raises is the answer
        return {"err": [type(exc).__name__, str(exc)]}
    return {"ok": _spec(state, out)}


def _scan(state, query, leaves):
    """lax.scan(body, init, xs, length, reverse) with a body returning `out` (or the carry)."""
    jax = state["jax"]
    init = _build(query["init"], leaves)
    xs = _build(query["xs"], leaves)
    out = query.get("out")
    seen = {}

    whole = query.get("whole")

    def body(carry, x):
        seen["in"] = [_tree_avals(state, carry), _tree_avals(state, x)]
        if whole is not None:
            return _zeros(state, whole)
        if out is None:
            return carry, None
        return _zeros(state, out[0]), _zeros(state, out[1])

    named = _named(query.get("names", []), body)

    def run(*arrays):
        return jax.lax.scan(
            named,
            _fill(init, arrays),
            _fill(xs, arrays),
            length=query.get("length"),
            reverse=bool(query.get("reverse")),
        )

    result = _evaluate(state, run, leaves)
    if "in" in seen:
        result["in"] = seen["in"]
    return result


def _fori(state, query, leaves):
    jax = state["jax"]
    init = _build(query["init"], leaves)
    bounds = [_build(b, leaves) for b in query["bounds"]]
    out = query.get("out")
    seen = {}

    def body(i, carry):
        seen["in"] = [_tree_avals(state, i), _tree_avals(state, carry)]
        return carry if out is None else _zeros(state, out)

    named = _named(query.get("names", []), body)

    def run(*arrays):
        lower, upper = (_fill(b, arrays) for b in bounds)
        return jax.lax.fori_loop(lower, upper, named, _fill(init, arrays))

    result = _evaluate(state, run, leaves)
    if "in" in seen:
        result["in"] = seen["in"]
    return result


def _while(state, query, leaves):
    jax = state["jax"]
    init = _build(query["init"], leaves)
    out = query.get("out")
    seen = {}

    def cond(carry):
        return jax.numpy.bool_(False)

    def body(carry):
        seen["in"] = [_tree_avals(state, carry)]
        return carry if out is None else _zeros(state, out)

    named = _named(query.get("names", []), body)

    def run(*arrays):
        return jax.lax.while_loop(cond, named, _fill(init, arrays))

    result = _evaluate(state, run, leaves)
    if "in" in seen:
        result["in"] = seen["in"]
    return result


def _branches(state, query, leaves):
    """lax.cond(pred, *branches, *operands) / lax.switch(index, branches, *operands)."""
    jax = state["jax"]
    pred = _build(query["pred"], leaves)
    operands = [_build(o, leaves) for o in query["operands"]]
    outs = query["outs"]

    def make(out):
        return lambda *ops: _zeros(state, out)

    branches = [make(o) for o in outs]

    def run(*arrays):
        ops = [_fill(o, arrays) for o in operands]
        if query["kind"] == "cond":
            return jax.lax.cond(_fill(pred, arrays), branches[0], branches[1], *ops)
        return jax.lax.switch(_fill(pred, arrays), branches, *ops)

    return _evaluate(state, run, leaves)


def _vmap(state, query, leaves):
    """jax.vmap(f, in_axes)(*args): JAX's checks of in_axes against the arguments; `in` gives
    the per-example types the body sees."""
    jax = state["jax"]
    args = [_build(a, leaves) for a in query["args"]]
    in_axes = _from_json(query.get("in_axes", 0))
    seen = {}

    out = query.get("out")

    def body(*inner):
        seen["in"] = [_tree_avals(state, x) for x in inner]
        return 0.0 if out is None else _zeros(state, out)

    named = _function(query["fn"]) if query.get("fn") else _named(query.get("names", []), body)

    def run(*arrays):
        return jax.vmap(named, in_axes=in_axes)(*(_fill(a, arrays) for a in args))

    result = _evaluate(state, run, leaves)
    if "in" in seen:
        result["in"] = seen["in"]
    return result


def _from_json(value):
    if isinstance(value, dict) and "py" in value:
        return value["py"]
    if isinstance(value, dict) and "l" in value:
        return [_from_json(v) for v in value["l"]]
    if isinstance(value, dict) and "t" in value:
        return tuple(_from_json(v) for v in value["t"])
    if isinstance(value, dict) and "d" in value:
        return {k: _from_json(v) for k, v in value["d"]}
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def _grad(state, query, leaves):
    """jax.grad(f, argnums, has_aux)(*args) with f returning `out`."""
    jax = state["jax"]
    args = [_build(a, leaves) for a in query["args"]]
    out = query.get("out")
    api = {"grad": jax.grad, "value_and_grad": jax.value_and_grad}[query["api"]]

    def body(*inner):
        # JAX checks the output's type (scalar, real, a pair with has_aux), not what it
        # depends on: zeros of that type stand in for it.
        return _zeros(state, out)

    named = _function(query["fn"]) if query.get("fn") else _named(query.get("names", []), body)

    def run(*arrays):
        return api(
            named, argnums=_from_json(query.get("argnums", 0)), has_aux=bool(query.get("has_aux"))
        )(*(_fill(a, arrays) for a in args))

    return _evaluate(state, run, leaves)


TEMPLATES = {
    "scan": _scan,
    "fori": _fori,
    "while": _while,
    "cond": _branches,
    "switch": _branches,
    "vmap": _vmap,
    "grad": _grad,
}


if __name__ == "__main__":
    main()
