"""One `warnings.warn(...)` call -> a site like a raise's: the category is its class.

Users paste JAX's warnings as often as its errors (issue 18). A call warns when it is
`warnings.warn(msg, Category)` (or `category=Category`; `UserWarning` when none is given, as
Python does), `warn(...)`/`_warn(...)` imported from `warnings`, `warnings.warn(Category(msg))`,
or JAX's own `deprecations.warn(deprecation_id, msg, stacklevel)`, which warns a
`DeprecationWarning` (it raises only once a deprecation is "accelerated", inside Google);
and the messages of a module's `_deprecations` table (`deprecation_table_sites`).
The message becomes a template by the same rules as a raise's (`messages.template_of`); a
message or category computed at run time gives no site.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from jaxerr_ls.extract.messages import Lookup, Skip, template_of
from jaxerr_ls.extract.sites import MODULE_SCOPE, RaiseSite, exception_name

Chain = tuple[str, ...]
Import = tuple[str, "str | None"]

DEFAULT_CATEGORY = "UserWarning"  # what `warnings.warn` uses when given none
DEPRECATIONS = "jax._src.deprecations"
_WARN_NAMES = frozenset({"warn", "_warn"})


@dataclass(frozen=True)
class WarnCall:
    """How a call warns: where its message is, and its category when the callee fixes it."""

    message_index: int
    category: str | None


def may_warn(chain: Chain) -> bool:
    """A cheap test during the walk; `warn_call` decides once the module's imports are known."""
    return chain[-1] in _WARN_NAMES


def warn_call(chain: Chain, imports: Mapping[str, Import]) -> WarnCall | None:
    """The warning call `chain` names, given the module's imports; None when it is not one."""
    if chain == ("warnings", "warn") and imports.get("warnings", ("warnings", None)) == (
        "warnings",
        None,
    ):
        return WarnCall(0, None)
    if len(chain) == 1 and imports.get(chain[0]) == ("warnings", "warn"):
        return WarnCall(0, None)
    if len(chain) == 2 and chain[1] == "warn":
        module, attribute = imports.get(chain[0], ("", None))
        target = f"{module}.{attribute}" if attribute else module
        if target == DEPRECATIONS:
            return WarnCall(1, "DeprecationWarning")
    return None


def is_category(name: str | None) -> bool:
    """Python's warning classes and JAX's own (`SparseEfficiencyWarning`) all end so; a name
    that does not (`category`, `cls`) is a variable, known only at run time."""
    return name is not None and name.endswith("Warning")


def warning_site(
    file: str,
    node: ast.Call,
    how: WarnCall,
    function: str,
    lookup: Lookup,
    condition: str = "",
) -> RaiseSite | None:
    """The call's site (its category as the class), or None when the message or category is
    not known from the source."""
    keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}
    message: ast.expr | None = (
        node.args[how.message_index]
        if len(node.args) > how.message_index
        else keywords.get("message")
    )
    if message is None:
        return None
    category = how.category
    if category is None:
        given = node.args[1] if len(node.args) > 1 else keywords.get("category")
        category = DEFAULT_CATEGORY if given is None else exception_name(given)
        if isinstance(message, ast.Call) and is_category(exception_name(message.func)):
            # `warnings.warn(FooWarning(msg))`: the instance names its own category.
            category = exception_name(message.func)
            message = message.args[0] if message.args else None
            if message is None:
                return None
    if category is None or not is_category(category):
        return None
    template = template_of(message, lookup)
    if isinstance(template, Skip) or not template.strip():
        return None
    return RaiseSite(file, node.lineno, function, category, template, condition)


def deprecation_table_sites(file: str, statements: list[ast.stmt]) -> list[RaiseSite]:
    """A module's `_deprecations = {"name": (message, obj), ...}`: JAX's module `__getattr__`
    (`deprecations.deprecation_getattr`) warns `DeprecationWarning: message` when `name` is
    used. An entry whose object is None is no longer a warning (that name raises
    AttributeError), so it is left out."""
    sites: list[RaiseSite] = []
    for statement in statements:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and statement.targets[0].id == "_deprecations"
            and isinstance(statement.value, ast.Dict)
        ):
            continue
        for value in statement.value.values:
            if not isinstance(value, ast.Tuple) or len(value.elts) < 2:
                continue
            message, obj = value.elts[0], value.elts[1]
            if isinstance(obj, ast.Constant) and obj.value is None:
                continue
            template = template_of(message)
            if isinstance(template, Skip) or not template.strip():
                continue
            sites.append(
                RaiseSite(file, message.lineno, MODULE_SCOPE, "DeprecationWarning", template)
            )
    return sites
