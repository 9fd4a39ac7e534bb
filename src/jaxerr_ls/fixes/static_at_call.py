"""`mark-static-at-call`: the error points at a call of a jitted function that passes a value jit
cannot trace (a string: `activate(x, "relu")`) -> mark that parameter static where the function is
jitted.

Safe, as `mark-static`: a string (or other hashable Python value) passed to a jitted function can
only raise unless it is static; static, it is hashed and its branch runs in Python as written. The
parameter comes from the message (`... at path kind`), else from the call's string arguments. Every
parameter the file passes a string (or that the body needs concrete and gets a hashable value) is
marked in the same edit, so the next call does not fail on the next one. Not offered when the file
passes an array for it, nor for `self` (see `jit-method-static-self`).
"""

from __future__ import annotations

import ast
import dataclasses
from types import MappingProxyType

from jaxerr_ls.fixes import mark_static
from jaxerr_ls.fixes.base import FixContext, ProposedFix
from jaxerr_ls.fixes.common import field
from jaxerr_ls.fixes.usage import calls_on_line, model_of


class _StaticAtCall:
    id = "mark-static-at-call"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        model = model_of(ctx.source)
        if model is None:
            return None
        named = field(ctx, "name", "arg", "argname")
        for function, site in calls_on_line(model, ctx.line):
            node = function.node
            if isinstance(node, ast.Lambda):
                continue
            if named is not None and function.param(named) is not None:
                name = named
            else:
                strings = [a.param for a in site.arguments if a.kind == "str" and a.param]
                if not strings:
                    continue
                name = strings[0]
            param = function.param(name)
            if param is None or param.static or (function.is_method and param.index == 0):
                continue
            at_def = FixContext(
                ctx.source,
                node.lineno - 1,
                None,
                MappingProxyType({"name": name}),
                ctx.entry_id,
            )
            proposed = mark_static.FIX.propose(at_def)
            if proposed is not None:
                return dataclasses.replace(proposed, fix_id=self.id, safe=self.safe)
        return None


FIX = _StaticAtCall()
