"""`axis-names`: a collective (`lax.psum(x, "i")`, `lax.axis_index("i")`...) naming an axis, in a
function this file only runs eagerly or under `jax.jit`, never under `shard_map`/`pmap`/`vmap`
(which bind axis names).

Entries: unbound-axis-name (eager), collective-unbound-axis-name (under jit). Quiet when the
function is passed to shard_map/pmap/vmap/xmap anywhere, is nested, or is never called here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model
from jaxerr_ls.analysis.build import call_sites_of
from jaxerr_ls.rules.base import Finding, finding

EAGER = "unbound-axis-name"
JITTED = "collective-unbound-axis-name"
_COLLECTIVES = frozenset(
    {
        "psum",
        "pmean",
        "pmax",
        "pmin",
        "all_gather",
        "axis_index",
        "ppermute",
        "all_to_all",
        "psum_scatter",
        "pshuffle",
        "pbroadcast",
    }
)


def _axis_argument(call: ast.Call, last: str) -> ast.expr | None:
    named = [k.value for k in call.keywords if k.arg == "axis_name"]
    if named:
        return named[0]
    index = 0 if last == "axis_index" else 1
    return call.args[index] if len(call.args) > index else None


class _AxisNames:
    id = "axis-names"
    entries: tuple[str, ...] = (EAGER, JITTED)

    def check(self, model: Model) -> Iterable[Finding]:
        for node in model.tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            traced = model.function(node)
            apis = traced.transform_apis if traced is not None else frozenset()
            if apis - {"jax.jit"} or self._passed_anywhere(model, node):
                continue
            jitted = "jax.jit" in apis
            called = traced.call_sites if traced is not None and jitted else ()
            if not jitted:
                called = tuple(call_sites_of(model, node))
            if not any(self._module_level(model, site.node) for site in called):
                continue
            for part in ast.walk(node):
                if not isinstance(part, ast.Call):
                    continue
                qualified = model.qualify(part.func) or ""
                last = qualified.rsplit(".", 1)[-1]
                if not qualified.startswith("jax.lax.") or last not in _COLLECTIVES:
                    continue
                axis = _axis_argument(part, last)
                if not (isinstance(axis, ast.Constant) and isinstance(axis.value, str)):
                    continue
                entry = JITTED if jitted else EAGER
                message = (
                    f"NameError: `{model.text(part.func)}` names the axis '{axis.value}', but no "
                    f"`shard_map`/`pmap`/`vmap` binds it around `{node.name}`."
                )
                fields = {"axis_name": axis.value}
                yield finding(model, part, entry, message, self.id, fields)

    def _passed_anywhere(self, model: Model, node: ast.FunctionDef) -> bool:
        """Named anywhere but as a plain call or a `jax.jit` argument: maybe mapped elsewhere."""
        for part in ast.walk(model.tree):
            if isinstance(part, ast.Name) and part.id == node.name:
                parent = model.parent(part)
                if isinstance(parent, ast.Call) and parent.func is part:
                    continue
                if isinstance(parent, ast.Call) and model.qualify(parent.func) == "jax.jit":
                    continue
                return True
        return False

    def _module_level(self, model: Model, call: ast.AST) -> bool:
        current = model.parent(call)
        while current is not None:
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                return False
            current = model.parent(current)
        return True


RULE = _AxisNames()
