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
    # A logging call's severity (`WARNING`, `ERROR`, `FATAL`: `logs.py`); "" for a raise or a
    # warning.
    severity: str = ""


@dataclass(frozen=True)
class HelperCall:
    """A message built by calling a function (`raise TypeError(concretization_err_msg(fun))`):
    the name called (last dotted component) and which of its parameters the call passes."""

    name: str
    positional: int  # arguments passed by position
    keywords: tuple[str, ...]  # parameters passed by keyword
    unpacked: bool = False  # `*args` or `**kwargs`: every parameter may be passed


@dataclass(frozen=True)
class MessageHelper:
    """A module-level function whose every `return` gives one message template (its parameters
    are placeholders): what `raise E(helper(...))` prints. `defaults`: the parameters whose
    default is literal text (a string default, or `if p is None: p = "..."` in the body), worded
    in where a call leaves them out."""

    name: str
    template: str
    parameters: tuple[str, ...]  # positional ones first, in order, then keyword-only ones
    positional: int  # how many of `parameters` can be passed by position
    defaults: tuple[tuple[str, str], ...] = ()


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
    helper: HelperCall | None = None  # the message is this call's result: see `MessageHelper`


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
    helper: HelperCall | None = None
    for candidate in candidates:
        result = template_of(candidate, lookup)
        if isinstance(result, Skip):
            first_skip = first_skip or result
            helper = helper or helper_call(candidate)
            continue
        if not result.strip():
            # Nothing to match or show; the catalog rejects empty messages.
            return Skipped(file, node.lineno, "empty message")
        name = exception_name(exc.func)
        if name is None:
            return Skipped(file, node.lineno, "exception class computed at run time")
        return RaiseSite(file, node.lineno, function, name, result, condition)
    reason = first_skip.reason if first_skip else "no message argument"
    return Skipped(file, node.lineno, reason, called, function, condition, helper)


def helper_call(node: ast.expr) -> HelperCall | None:
    """`helper(a, b, key=c)` or `module.helper(...)` as a `HelperCall`; None for other forms."""
    if not isinstance(node, ast.Call):
        return None
    name = exception_name(node.func)
    if name is None or name in ("format", "dedent"):
        return None
    unpacked = any(isinstance(a, ast.Starred) for a in node.args) or any(
        kw.arg is None for kw in node.keywords
    )
    keywords = tuple(kw.arg for kw in node.keywords if kw.arg is not None)
    return HelperCall(name, len(node.args), keywords, unpacked)
