"""One `raise` statement -> a raise site (exception class, message template) or why it has none."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxerr_ls.extract.messages import Lookup, Skip, template_of

MODULE_SCOPE = "<module>"


@dataclass(frozen=True)
class RaiseSite:
    file: str
    line: int
    function: str  # qualified: "Class.method", "outer.<locals>.inner", "<module>"
    exception: str  # last dotted component of the class as written
    template: str
    # The `if`/`elif` tests enclosing the raise in its function, as the source states them
    # (an `else` branch negated, nested tests joined with `and`); "" when unconditional.
    condition: str = ""


@dataclass(frozen=True)
class Skipped:
    file: str
    line: int
    reason: str
    # The class raised, when it is named: its own constructor may word the message (Flax's
    # `raise errors.ScopeParamShapeError(name, path, ...)`; see `classes.py`).
    exception: str = ""
    function: str = ""
    condition: str = ""


def exception_name(node: ast.expr) -> str | None:
    """`ValueError` -> "ValueError"; `core.ConcretizationTypeError` -> "ConcretizationTypeError"."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def site_of(
    file: str, node: ast.Raise, function: str, lookup: Lookup, condition: str = ""
) -> RaiseSite | Skipped:
    """The message is the first argument (positional, then keyword) that is literal-style:
    JAX passes the message second to a few classes, e.g. `ConcretizationTypeError(tracer, msg)`."""
    exc = node.exc
    if exc is None:
        return Skipped(file, node.lineno, "bare raise (re-raises the current exception)")
    if not isinstance(exc, ast.Call):
        named = exception_name(exc) or ""
        return Skipped(
            file,
            node.lineno,
            "raises an exception object or class without a message",
            named,
            function,
            condition,
        )
    candidates = [*exc.args, *(kw.value for kw in exc.keywords)]
    called = exception_name(exc.func) or ""
    if not candidates:
        return Skipped(
            file,
            node.lineno,
            "exception constructed without arguments",
            called,
            function,
            condition,
        )
    first_skip: Skip | None = None
    for candidate in candidates:
        result = template_of(candidate, lookup)
        if isinstance(result, Skip):
            first_skip = first_skip or result
            continue
        if not result.strip():
            # Nothing to match or show; the catalog rejects empty messages.
            return Skipped(file, node.lineno, "empty message")
        name = exception_name(exc.func)
        if name is None:
            return Skipped(file, node.lineno, "exception class computed at run time")
        return RaiseSite(file, node.lineno, function, name, result, condition)
    reason = first_skip.reason if first_skip else "no message argument"
    return Skipped(file, node.lineno, reason, called, function, condition)
