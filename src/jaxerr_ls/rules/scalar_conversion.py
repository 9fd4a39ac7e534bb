"""`scalar-conversion`: `float(x)`, `int(x)`, `complex(x)`, `x.item()`, `x.tolist()` on a traced
value while JAX traces abstractly (jit, vmap, scan...): the value is not known yet.

Entries: concretization-scalar-conversion (`float`/`int`/`complex`), concretization-item-tolist.
Under `jax.grad` alone the value is known, and `float(x.shape[0])` is not traced: both are quiet.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model
from jaxerr_ls.rules.base import Finding, abstract_functions, because, finding, origin_fields

SCALAR = "concretization-scalar-conversion"
ITEM = "concretization-item-tolist"


class _ScalarConversion:
    id = "scalar-conversion"
    entries: tuple[str, ...] = (SCALAR, ITEM)

    def check(self, model: Model) -> Iterable[Finding]:
        for function in abstract_functions(model):
            values = model.values(function)
            for node in model.body(function):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if (
                    isinstance(func, ast.Name)
                    and func.id in ("float", "int", "complex")
                    and func.id not in function.traced_names
                    and len(node.args) == 1
                ):
                    origin = values.origin(node.args[0])
                    if origin is None:
                        continue
                    fields = {"function": func.id, **origin_fields(origin)}
                    message = (
                        f"ConcretizationTypeError: `{func.id}()` needs a concrete value, but "
                        f"`{model.text(node.args[0])}` is traced: "
                        f"{because(model, function, origin)}."
                    )
                    yield finding(model, node, SCALAR, message, self.id, fields)
                elif (
                    isinstance(func, ast.Attribute)
                    and func.attr in ("item", "tolist")
                    and not node.args
                ):
                    origin = values.origin(func.value)
                    if origin is None:
                        continue
                    fields = {"method": func.attr, **origin_fields(origin)}
                    message = (
                        f"ConcretizationTypeError: `.{func.attr}()` needs a concrete value, but "
                        f"`{model.text(func.value)}` is traced: {because(model, function, origin)}."
                    )
                    yield finding(model, node, ITEM, message, self.id, fields)


RULE = _ScalarConversion()
