"""`item-assignment`: `x[i] = v` / `x[i] += v` on a JAX array (traced, or made by a `jax.numpy`
function). JAX arrays are immutable; `x = x.at[i].set(v)` is the way.

Entry: immutable-array-item-assignment. Quiet on NumPy arrays, lists, dicts, Refs (`ref[...] = v`
in Pallas kernels, `jax.new_ref`) and names bound to anything else anywhere in the scope.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from jaxerr_ls.analysis import Model
from jaxerr_ls.analysis.values import assignments, walk_body
from jaxerr_ls.rules.base import Finding, finding

ENTRY = "immutable-array-item-assignment"
# jax.numpy calls that return a new array (not a view of a NumPy one, not a Ref).
_NOT_ARRAYS = frozenset({"shape", "ndim", "size", "dtype", "iinfo", "finfo", "result_type"})


def _targets(owner: ast.AST) -> Iterator[tuple[ast.Subscript, ast.AST]]:
    for node in walk_body(owner):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript):
                    yield target, node
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript):
            yield node.target, node


def _jnp_array(model: Model, expr: ast.expr | None) -> bool:
    if not isinstance(expr, ast.Call):
        return False
    qualified = model.qualify(expr.func) or ""
    return qualified.startswith("jax.numpy.") and qualified.rsplit(".", 1)[-1] not in _NOT_ARRAYS


class _ItemAssignment:
    id = "item-assignment"
    entries: tuple[str, ...] = (ENTRY,)

    def check(self, model: Model) -> Iterable[Finding]:
        seen: set[int] = set()
        for function in model.functions:
            if function.pallas_kernel:
                continue
            values = model.values(function)
            bound = assignments(function.node)
            params = {p.name for p in function.params}
            for target, statement in _targets(function.node):
                base = target.value
                if not isinstance(base, ast.Name) or base.id in params or id(target) in seen:
                    continue
                made = bound.get(base.id)
                # Every binding computes an array from traced values (a pytree param may be a dict).
                if made and all(
                    not element and isinstance(v, ast.Call | ast.BinOp) and values.traced(v)
                    for v, element in made
                ):
                    seen.add(id(target))
                    yield self._finding(model, target, statement, "it is a traced array")
        scopes: list[ast.AST] = [model.tree]
        scopes += [
            n for n in ast.walk(model.tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        for scope in scopes:
            bound = assignments(scope)
            for target, statement in _targets(scope):
                base = target.value
                if not isinstance(base, ast.Name) or id(target) in seen:
                    continue
                made = bound.get(base.id)
                if made and all(not element and _jnp_array(model, v) for v, element in made):
                    seen.add(id(target))
                    yield self._finding(model, target, statement, "it is a `jax.numpy` array")

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
