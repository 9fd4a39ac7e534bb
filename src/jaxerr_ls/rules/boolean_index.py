"""`boolean-index`: `x[x > 0]` (a traced boolean mask as an index) under jit/vmap/scan: the
result's size depends on the values, which tracing does not know.

Entry: non-concrete-boolean-index. Quiet on `jnp.where(mask, x, 0)`, on integer indices, on masks
that are not comparisons/logical ops of traced values, and outside traced functions.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model, TracedFunction
from jaxerr_ls.analysis.values import assignments
from jaxerr_ls.rules.base import Finding, abstract_functions, because, finding, origin_fields

ENTRY = "non-concrete-boolean-index"
_LOGICAL = frozenset(
    {"logical_and", "logical_or", "logical_not", "logical_xor", "isnan", "isfinite", "isinf"}
)
_COMPARE = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


def _is_mask(model: Model, function: TracedFunction, node: ast.expr, depth: int = 0) -> bool:
    """A comparison or logical combination (of traced values): surely boolean."""
    if isinstance(node, ast.Compare):
        return all(isinstance(op, _COMPARE) for op in node.ops)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr | ast.BitXor):
        return _is_mask(model, function, node.left, depth) and _is_mask(
            model, function, node.right, depth
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return _is_mask(model, function, node.operand, depth)
    if isinstance(node, ast.Call):
        qualified = model.qualify(node.func) or ""
        return qualified.startswith("jax.numpy.") and qualified.rsplit(".", 1)[-1] in _LOGICAL
    if isinstance(node, ast.Name) and depth < 3:
        made = assignments(function.node).get(node.id) or []
        return bool(made) and all(
            v is not None and not e and _is_mask(model, function, v, depth + 1) for v, e in made
        )
    return False


class _BooleanIndex:
    id = "boolean-index"
    entries: tuple[str, ...] = (ENTRY,)

    def check(self, model: Model) -> Iterable[Finding]:
        for function in abstract_functions(model):
            if function.pallas_kernel:
                continue
            values = model.values(function)
            for node in model.body(function):
                if not isinstance(node, ast.Subscript) or not values.traced(node.value):
                    continue
                index = node.slice
                origin = values.origin(index)
                if origin is None or not _is_mask(model, function, index):
                    continue
                message = (
                    f"NonConcreteBooleanIndexError: indexing `{model.text(node.value)}` with the "
                    f"mask `{model.text(index)}` gives a value-dependent shape, but "
                    f"{because(model, function, origin)}; use `jnp.where`."
                )
                yield finding(model, node, ENTRY, message, self.id, origin_fields(origin))


RULE = _BooleanIndex()
