"""`size-required`: `jnp.nonzero(x)`, `jnp.where(c)` (one argument), `jnp.argwhere`,
`jnp.flatnonzero`, `jnp.unique`, `jnp.union1d`, `jnp.setdiff1d`, `jnp.intersect1d` on a traced
value without `size=` under jit/vmap/scan: the output size depends on the values.

Entries: concretization-nonzero-size, concretization-unique-size. Quiet with `size=`, with
three-argument `jnp.where`, and outside traced functions.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model
from jaxerr_ls.rules.base import Finding, abstract_functions, because, finding, origin_fields

NONZERO = "concretization-nonzero-size"
UNIQUE = "concretization-unique-size"
_NONZERO = frozenset({"nonzero", "argwhere", "flatnonzero", "where"})
_UNIQUE = frozenset(
    {
        "unique",
        "union1d",
        "setdiff1d",
        "intersect1d",
        "unique_values",
        "unique_counts",
        "unique_inverse",
        "unique_all",
    }
)


class _SizeRequired:
    id = "size-required"
    entries: tuple[str, ...] = (NONZERO, UNIQUE)

    def check(self, model: Model) -> Iterable[Finding]:
        for function in abstract_functions(model):
            values = model.values(function)
            for node in model.body(function):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                qualified = model.qualify(node.func) or ""
                if not qualified.startswith("jax.numpy."):
                    continue
                last = qualified.rsplit(".", 1)[-1]
                if last not in _NONZERO and last not in _UNIQUE:
                    continue
                if any(k.arg == "size" or k.arg is None for k in node.keywords):
                    continue
                if last == "where" and (len(node.args) != 1 or node.keywords):
                    continue
                if any(isinstance(a, ast.Starred) for a in node.args):
                    continue
                origin = values.origin(node.args[0])
                if origin is None:
                    continue
                entry = UNIQUE if last in _UNIQUE else NONZERO
                message = (
                    f"ConcretizationTypeError: `{model.text(node.func)}` without `size=` has a "
                    f"value-dependent output size, but {because(model, function, origin)}."
                )
                yield finding(model, node, entry, message, self.id, origin_fields(origin))


RULE = _SizeRequired()
