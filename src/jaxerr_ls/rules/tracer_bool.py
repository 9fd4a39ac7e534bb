"""`tracer-bool`: Python `if`/`while`/`assert`/`and`/`or`/`not`/`bool()` on a traced value.

Entry: tracer-bool-conversion (TracerBoolConversionError). Not flagged: tests on shapes, dtypes,
`is None`, static arguments, `isinstance`, code outside traced functions, `jnp.where`/`lax.cond`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model, TracedFunction
from jaxerr_ls.rules.base import Finding, abstract_functions, because, finding, origin_fields

ENTRY = "tracer-bool-conversion"
_WHAT = {
    ast.If: "an `if`",
    ast.While: "a `while`",
    ast.Assert: "an `assert`",
    ast.IfExp: "a conditional expression",
}


class _TracerBool:
    id = "tracer-bool"
    entries: tuple[str, ...] = (ENTRY,)

    def check(self, model: Model) -> Iterable[Finding]:
        for function in abstract_functions(model):
            values = model.values(function)
            for node in model.body(function):
                tests: list[tuple[ast.expr, str]] = []
                if isinstance(node, ast.If | ast.While | ast.Assert | ast.IfExp):
                    tests.append((node.test, _WHAT[type(node)]))
                elif isinstance(node, ast.BoolOp):
                    op = "and" if isinstance(node.op, ast.And) else "or"
                    tests += [(v, f"`{op}`") for v in node.values[:-1]]
                elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                    tests.append((node.operand, "`not`"))
                elif (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "bool"
                    and len(node.args) == 1
                ):
                    tests.append((node.args[0], "`bool()`"))
                for test, what in tests:
                    origin = values.origin(test)
                    if origin is None or _gets_strings(function, origin):
                        continue
                    message = (
                        f"TracerBoolConversionError: {what} on `{model.text(test)}` needs a "
                        f"concrete True/False, but {because(model, function, origin)}."
                    )
                    yield finding(model, test, ENTRY, message, self.id, origin_fields(origin))


def _gets_strings(function: TracedFunction, origin: frozenset[str]) -> bool:
    """A parameter some call passes a string: jit rejects that call first (jit-arguments)."""
    return any(
        a.kind == "str" for site in function.call_sites for a in site.arguments if a.param in origin
    )


RULE = _TracerBool()
