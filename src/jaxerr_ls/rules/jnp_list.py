"""`jnp-list`: a Python list passed where a `jax.numpy` function wants an array
(`jnp.mean([a, b])`, or a name bound only to a list): JAX refuses lists there, unlike NumPy.

Entry: jnp-list-argument. Quiet on functions that take sequences on purpose (`jnp.array`,
`jnp.asarray`, `jnp.stack`, `jnp.concatenate`, shapes of `jnp.zeros`...), on tuples of shape
arguments, and on names also bound to anything else.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model
from jaxerr_ls.analysis.values import assignments
from jaxerr_ls.rules.base import Finding, finding

ENTRY = "jnp-list-argument"
# Functions that run check_arraylike on their first argument (and take no sequence there).
_ARRAYLIKE_FIRST = frozenset(
    [
        "mean",
        "sum",
        "prod",
        "max",
        "min",
        "std",
        "var",
        "median",
        "argmax",
        "argmin",
        "amax",
        "amin",
        "average",
        "cumsum",
        "cumprod",
        "exp",
        "log",
        "log1p",
        "expm1",
        "sqrt",
        "abs",
        "absolute",
        "sin",
        "cos",
        "tan",
        "tanh",
        "sinh",
        "cosh",
        "arcsin",
        "arccos",
        "arctan",
        "square",
        "reciprocal",
        "sign",
        "floor",
        "ceil",
        "round",
        "clip",
        "sort",
        "argsort",
        "ravel",
        "transpose",
        "nanmean",
        "nansum",
        "nanmax",
        "nanmin",
        "any",
        "all",
        "isnan",
        "isfinite",
        "linalg.norm",
        "diff",
        "cumulative_sum",
    ]
)


class _JnpList:
    id = "jnp-list"
    entries: tuple[str, ...] = (ENTRY,)

    def check(self, model: Model) -> Iterable[Finding]:
        for node in ast.walk(model.tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            qualified = model.qualify(node.func) or ""
            if not qualified.startswith("jax.numpy."):
                continue
            short = qualified[len("jax.numpy.") :]
            if short not in _ARRAYLIKE_FIRST:
                continue
            first = node.args[0]
            if not self._is_list(model, node, first):
                continue
            fun = short.rsplit(".", 1)[-1]
            message = (
                f"TypeError: `{model.text(node.func)}` requires an array, but "
                f"`{model.text(first)}` is a Python list; wrap it in `jnp.asarray(...)`."
            )
            fields = {"fun": fun, "type": "<class 'list'>", "position": "0"}
            yield finding(model, first, ENTRY, message, self.id, fields)

    def _is_list(self, model: Model, call: ast.Call, node: ast.expr) -> bool:
        if isinstance(node, ast.List | ast.ListComp):
            return True
        if not isinstance(node, ast.Name):
            return False
        scope = next(iter(model.scopes.scope_of(call)))
        params = set()
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            every = [*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs]
            params = {a.arg for a in every}
        if node.id in params:
            return False
        made = assignments(scope).get(node.id) or []
        # A list that is appended to and then passed is still a list.
        return bool(made) and all(isinstance(v, ast.List | ast.ListComp) and not e for v, e in made)


RULE = _JnpList()
