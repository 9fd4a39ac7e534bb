"""`concretization`: a traced value where JAX needs a Python number.

- `range(n)` with `n` traced -> tracer-integer-conversion (`__index__` on a tracer);
- `jnp.zeros(n)`, `jnp.ones((n, 3))`, `x.reshape(n, -1)`, `jax.random.normal(k, (n,))`... with a
  traced size -> traced-shape-not-concrete;
- `jnp.arange(n)` / `jnp.linspace(0, 1, n)` with a traced bound or count -> concretization-arange
  (linspace: traced-shape-not-concrete is not raised; it is the `num` concretization);
- `jax.nn.one_hot(x, n)` with `n` traced -> concretization-traced-value.
Shape arithmetic (`x.shape[0] * 2`), static arguments and untraced code are never flagged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model, TracedFunction
from jaxerr_ls.rules.base import Finding, abstract_functions, because, finding, origin_fields

INTEGER = "tracer-integer-conversion"
SHAPE = "traced-shape-not-concrete"
ARANGE = "concretization-arange"
VALUE = "concretization-traced-value"

_SHAPE_FIRST = frozenset({"zeros", "ones", "empty", "full", "eye", "identity"})
# jax.random samplers -> the position of their shape argument.
_RANDOM_SHAPE_AT = {
    "normal": 1,
    "uniform": 1,
    "randint": 1,
    "gumbel": 1,
    "exponential": 1,
    "bernoulli": 2,
    "truncated_normal": 3,
}


def _shape_parts(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.Tuple | ast.List) else [node]


class _Concretization:
    id = "concretization"
    entries: tuple[str, ...] = (INTEGER, SHAPE, ARANGE, VALUE)

    def check(self, model: Model) -> Iterable[Finding]:
        for function in abstract_functions(model):
            for node in model.body(function):
                if isinstance(node, ast.Call):
                    yield from self._call(model, function, node)

    def _call(self, model: Model, function: TracedFunction, call: ast.Call) -> Iterable[Finding]:
        values = model.values(function)
        func = call.func
        if (
            isinstance(func, ast.Name)
            and func.id == "range"
            and func.id not in function.traced_names
        ):
            for arg in call.args:
                origin = values.origin(arg)
                if origin is not None:
                    message = (
                        f"TracerIntegerConversionError: `range({model.text(arg)})` needs a Python "
                        f"int, but {because(model, function, origin)}."
                    )
                    yield finding(model, arg, INTEGER, message, self.id, origin_fields(origin))
                    return
            return
        qualified = model.qualify(func) or ""
        last = qualified.rsplit(".", 1)[-1]
        shapes: list[ast.expr] = []
        entry = SHAPE
        if qualified.startswith("jax.numpy.") and last in _SHAPE_FIRST and call.args:
            shapes = _shape_parts(call.args[0])
        elif qualified.startswith("jax.random.") and last in _RANDOM_SHAPE_AT:
            index = _RANDOM_SHAPE_AT[last]
            given = [k.value for k in call.keywords if k.arg == "shape"]
            if given:
                shapes = _shape_parts(given[0])
            elif len(call.args) > index:
                shapes = _shape_parts(call.args[index])
        elif qualified == "jax.numpy.arange":
            shapes, entry = list(call.args[:3]), ARANGE
        elif qualified == "jax.nn.one_hot" and len(call.args) > 1:
            shapes, entry = [call.args[1]], VALUE
        elif (
            isinstance(func, ast.Attribute) and func.attr == "reshape" and values.traced(func.value)
        ):
            args = call.args
            shapes = _shape_parts(args[0]) if len(args) == 1 else list(args)
        shapes += [
            k.value for k in call.keywords if k.arg == "shape" and entry == SHAPE and not shapes
        ]
        for part in shapes:
            origin = values.origin(part)
            if origin is None:
                continue
            what = model.text(call.func)
            if entry == ARANGE:
                message = (
                    f"ConcretizationTypeError: `{what}` needs concrete bounds to know its length, "
                    f"but `{model.text(part)}` is traced: {because(model, function, origin)}."
                )
            elif entry == VALUE:
                message = (
                    f"ConcretizationTypeError: `{what}` needs a concrete number of classes, "
                    f"but `{model.text(part)}` is traced: {because(model, function, origin)}."
                )
            else:
                message = (
                    f"TypeError: shapes must be concrete, but `{model.text(part)}` in the shape "
                    f"of `{what}` is traced: {because(model, function, origin)}."
                )
            yield finding(model, part, entry, message, self.id, origin_fields(origin))
            return


RULE = _Concretization()
