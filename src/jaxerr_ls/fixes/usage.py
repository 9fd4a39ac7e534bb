"""How the file uses what a fix changes, read from the tracing model (`jaxerr_ls.analysis`).

A fix asks before it is offered or preferred: what do the file's calls pass to this parameter (a
literal, an array, a list, a string)? How does the body use it (a shape, an axis, a count, a
branch)? Lines here are 0-based, like the fixes' context.
"""

from __future__ import annotations

import ast

from jaxerr_ls.analysis import (
    USE_AXIS,
    USE_BRANCH,
    USE_INDEX,
    USE_RANGE,
    USE_SHAPE,
    CallSite,
    Model,
    TracedFunction,
    analyze,
)

# Values a static argument can take (hashed by jit) and values it cannot.
HASHABLE = frozenset({"int", "float", "str", "bool", "none", "tuple", "complex"})
UNHASHABLE = frozenset({"array", "list", "dict", "set"})
# Uses that need a concrete Python value while tracing.
CONCRETE_USES = frozenset({USE_SHAPE, USE_AXIS, USE_RANGE, USE_BRANCH, USE_INDEX})

__all__ = [
    "CONCRETE_USES",
    "Model",
    "TracedFunction",
    "HASHABLE",
    "UNHASHABLE",
    "argument_kinds",
    "calls_on_line",
    "function_defined_at",
    "model_of",
    "must_be_static",
    "passed_only_hashable",
    "passed_unhashable",
]


def model_of(source: str) -> Model | None:
    return analyze(source)


def function_defined_at(model: Model, def_line: int, name: str) -> TracedFunction | None:
    """The traced function whose `def` keyword is on 0-based `def_line`."""
    for function in model.functions:
        node = function.node
        if isinstance(node, ast.Lambda) or node.name != name:
            continue
        if node.lineno - 1 == def_line:
            return function
    return None


def calls_on_line(model: Model, line: int) -> list[tuple[TracedFunction, CallSite]]:
    """The file's calls of traced functions that start on 0-based `line`."""
    return [(f, site) for f in model.functions for site in f.call_sites if site.line == line]


def argument_kinds(model: Model, function: TracedFunction, param: str) -> frozenset[str]:
    """What the file's calls pass for `param`: kinds, names read through their assignment.
    Empty when the file never calls the function (or never passes that parameter)."""
    kinds = set()
    for site in function.call_sites:
        argument = site.argument_for(param)
        if argument is not None:
            kinds.add(model.kind(argument.node))
    return frozenset(kinds)


def passed_unhashable(model: Model, function: TracedFunction, param: str) -> bool:
    """Whether some call in the file passes an array, list, dict or set for `param`."""
    return bool(argument_kinds(model, function, param) & UNHASHABLE)


def passed_only_hashable(model: Model, function: TracedFunction, param: str) -> bool:
    """Whether the file calls the function and every call passes a hashable literal for it."""
    kinds = argument_kinds(model, function, param)
    return bool(kinds) and kinds <= HASHABLE


def must_be_static(model: Model, function: TracedFunction) -> list[str]:
    """Traced parameters the body needs concrete and that every call in the file passes a
    hashable Python value (at least one call), and those every call passes a string: what
    marking static makes work."""
    found = []
    for param in function.params:
        if not param.traced or param.static:
            continue
        kinds = argument_kinds(model, function, param.name)
        if kinds == {"str"} or (param.uses & CONCRETE_USES and kinds and kinds <= HASHABLE):
            found.append(param.name)  # a string is never a valid traced argument
    return found
