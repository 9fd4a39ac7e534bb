"""The rule contract: a tracing model in, findings out. No LSP types here; the server converts."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from jaxerr_ls.analysis import Model, TracedFunction


@dataclass(frozen=True)
class Finding:
    """A predicted error: where JAX will raise the catalog entry `entry` and why.

    0-based lines; columns in Unicode code points. `fields` are the entry's message placeholders
    as a traceback would fill them (e.g. {"name": "n"}), so the entry's quick fixes apply.
    """

    entry: str
    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    rule: str
    fields: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


class Rule(Protocol):
    id: str  # the module's name with dashes: "tracer-bool"
    entries: tuple[str, ...]  # the catalog entries it predicts

    def check(self, model: Model) -> Iterable[Finding]: ...


def _code_points(line: str, byte_column: int) -> int:
    return len(line.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))


def finding(
    model: Model,
    node: ast.AST,
    entry: str,
    message: str,
    rule: str,
    fields: Mapping[str, str] | None = None,
) -> Finding:
    """A finding spanning `node` (its first line only), columns converted to code points."""
    line = getattr(node, "lineno", 1) - 1
    end_line = getattr(node, "end_lineno", None) or line + 1
    text = model.lines[line] if line < len(model.lines) else ""
    start = _code_points(text, getattr(node, "col_offset", 0))
    if end_line - 1 == line:
        end = _code_points(text, getattr(node, "end_col_offset", None) or len(text.encode()))
    else:
        end = len(text.rstrip())
    return Finding(
        entry,
        line,
        start,
        line,
        max(end, start),
        message,
        rule,
        MappingProxyType(dict(fields or {})),
    )


def abstract_functions(model: Model) -> Iterable[TracedFunction]:
    """Traced functions whose values are unknown while tracing (jit, vmap, scan bodies...)."""
    return (f for f in model.functions if f.abstract)


def origin_fields(origin: frozenset[str] | None) -> dict[str, str]:
    """{"name": param} when the value derives from one parameter (what mark-static reads)."""
    if origin is not None and len(origin) == 1:
        return {"name": next(iter(origin))}
    return {}


def because(model: Model, function: TracedFunction, origin: frozenset[str] | None) -> str:
    """ "depends on argument `x` of jitted `f`" - the why of a message."""
    where = f"`{function.name}`"
    how = _how(function)
    if origin:
        names = ", ".join(f"`{n}`" for n in sorted(origin))
        plural = "s" if len(origin) > 1 else ""
        return f"it depends on argument{plural} {names}, traced by {how} {where}"
    return f"it is traced by {how} {where}"


def _how(function: TracedFunction) -> str:
    current: TracedFunction | None = function
    while current is not None:
        for transform in current.transforms:
            if transform.api not in ("closure", "called-from"):
                return f"`{transform.api.replace('jax.experimental.pallas.', 'pl.')}` in"
            if transform.api == "called-from":
                return "its traced caller in"
        current = current.enclosing
    return "JAX in"
