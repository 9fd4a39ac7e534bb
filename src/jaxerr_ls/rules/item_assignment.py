"""`item-assignment`: `x[i] = v` / `x[i] += v` on a JAX array (traced, or made by a `jax.numpy`
function). JAX arrays are immutable; `x = x.at[i].set(v)` is the way.

Entry: immutable-array-item-assignment. Quiet on NumPy arrays, lists, dicts, Refs (`ref[...] = v`
in Pallas kernels, `jax.new_ref`) and names bound to anything else anywhere in the scope.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import FunctionNode, Model
from jaxerr_ls.analysis.values import assignments
from jaxerr_ls.rules.base import Finding, finding

ENTRY = "immutable-array-item-assignment"
# jax.numpy calls that return a new array (not a view of a NumPy one, not a Ref).
_NOT_ARRAYS = frozenset({"shape", "ndim", "size", "dtype", "iinfo", "finfo", "result_type"})


def _jnp_array(model: Model, expr: ast.expr | None) -> bool:
    if not isinstance(expr, ast.Call):
        return False
    qualified = model.qualify(expr.func) or ""
    return qualified.startswith("jax.numpy.") and qualified.rsplit(".", 1)[-1] not in _NOT_ARRAYS


class _ItemAssignment:
    id = "item-assignment"
    entries: tuple[str, ...] = (ENTRY,)

    def check(self, model: Model) -> Iterable[Finding]:
        # One pass for `name[...] = v` statements, grouped by scope; each scope's bindings once.
        by_scope: dict[int, tuple[ast.AST, list[tuple[ast.Subscript, ast.AST]]]] = {}
        for node in model.nodes:
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    scope = next(iter(model.scopes.scope_of(node)))
                    by_scope.setdefault(id(scope), (scope, []))[1].append((target, node))
        for scope, found in by_scope.values():
            bound = assignments(scope)
            function = model.function(scope) if isinstance(scope, FunctionNode) else None
            if function is not None and function.pallas_kernel:
                continue
            values = model.values(function) if function is not None else None
            params = {p.name for p in function.params} if function is not None else set()
            for target, statement in sorted(found, key=lambda p: p[0].lineno):
                name = target.value.id  # type: ignore[attr-defined]
                made = bound.get(name)
                if not made or any(element for _, element in made):
                    continue
                if all(_jnp_array(model, v) for v, _ in made):
                    yield self._finding(model, target, statement, "it is a `jax.numpy` array")
                elif (
                    values is not None
                    and name not in params
                    # Every binding computes an array from traced values (a param may be a dict).
                    and all(
                        isinstance(v, ast.Call | ast.BinOp) and values.traced(v) for v, _ in made
                    )
                ):
                    yield self._finding(model, target, statement, "it is a traced array")

    def _finding(
        self, model: Model, target: ast.Subscript, statement: ast.AST, why: str
    ) -> Finding:
        name = model.text(target.value)
        message = (
            f"TypeError: JAX arrays are immutable, so `{model.text(target)} = ...` fails on "
            f"`{name}` ({why}); use `{name} = {name}.at[...].set(...)`."
        )
        return finding(model, statement, ENTRY, message, self.id)


RULE = _ItemAssignment()
