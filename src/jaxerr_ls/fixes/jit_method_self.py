"""`jit-method-static-self`: `@jax.jit` on a method -> `@partial(jax.jit, static_argnums=0)`.

jit cannot trace `self` (an object, not an array). Marked static, `self` is hashed: by identity
for a plain class, by value for a frozen dataclass. Safe when the object cannot change under the
cache: the class assigns no `self.<attr>` outside `__init__`. When it does, a changed field would
not be seen by the compiled method (cached per object): offered, not safe, and the title says so.
Not offered when instances are unhashable (a non-frozen dataclass, `__eq__` without `__hash__`):
static would fail to hash them.
"""

from __future__ import annotations

import ast

from jaxerr_ls.fixes import mark_static
from jaxerr_ls.fixes.base import FixContext, ProposedFix
from jaxerr_ls.fixes.common import JIT_NAMES, File, open_file
from jaxerr_ls.fixes.syntax import (
    Node,
    decorators_of,
    enclosing,
    funcdef_name,
    funcdef_params,
    funcdefs_at,
)
from jaxerr_ls.fixes.usage import calls_on_line, model_of
from jaxerr_ls.fixes.wrap_jit import decorator_target

_TITLE = "Mark 'self' as static (static_argnums=0)"


class _JitMethodSelf:
    id = "jit-method-static-self"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        for def_line in _method_lines(ctx):
            file = open_file(FixContext(ctx.source, def_line, None, {}, ctx.entry_id))
            method = next(iter(funcdefs_at(file.module, file.line)), None)
            if method is None or not _jitted(file, method):
                continue
            params = funcdef_params(method)
            cls = enclosing(method, "classdef")
            if not params or params[0] not in ("self", "cls") or cls is None:
                continue
            hashable, frozen = _instances(cls)
            if not hashable:
                continue
            safe = frozen or not _mutates_self(cls)
            title = _TITLE if safe else _TITLE + " (stale if the object's fields change)"
            rating = mark_static.Rating(self.id, safe)
            return mark_static.propose_at(rating, file, [], 0, title)
        return None


def _method_lines(ctx: FixContext) -> list[int]:
    """0-based `def` lines: methods called on the line, then the method around the line."""
    lines = []
    model = model_of(ctx.source)
    if model is not None:
        for function, _site in calls_on_line(model, ctx.line):
            node = function.node
            if function.is_method and not isinstance(node, ast.Lambda):
                lines.append(node.lineno - 1)
    file = open_file(ctx)
    lines += [f.start[0] - 1 for f in funcdefs_at(file.module, file.line)]
    return list(dict.fromkeys(lines))


def _jitted(file: File, method: Node) -> bool:
    return any(decorator_target(file, d) in JIT_NAMES for d in decorators_of(method))


def _instances(cls: Node) -> tuple[bool, bool]:
    """(hashable, hashed by value) for the class's instances, as far as the text shows."""
    frozen = False
    for decorator in decorators_of(cls):
        text = decorator.code()
        if "dataclass" in text:
            if "frozen=True" not in text:
                return False, False
            frozen = True
    names = {funcdef_name(f) for f in cls.walk() if f.type == "funcdef"}
    if "__eq__" in names and "__hash__" not in names:
        return False, False
    return True, frozen


def _mutates_self(cls: Node) -> bool:
    """Whether some method other than `__init__` assigns `self.<attr>`."""
    for function in (n for n in cls.walk() if n.type == "funcdef"):
        if funcdef_name(function) in ("__init__", "__post_init__"):
            continue
        for node in function.walk():
            if node.type != "expr_stmt":
                continue
            targets = node.children[:-1]
            for target in targets:
                kids = target.children if target.type == "atom_expr" else ()
                if kids and kids[0].is_name("self") and len(kids) == 2:
                    return True
    return False


FIX = _JitMethodSelf()
