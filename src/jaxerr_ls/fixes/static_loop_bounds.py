"""`static-loop-bounds`: `fori_loop` bounds from a jitted function's parameters, differentiated in
reverse mode -> mark those parameters static.

Reverse-mode differentiation of `fori_loop` needs bounds known while tracing (it then unrolls into
a `scan`); a bound that is a traced parameter is not. Marked static, the bound is the Python value
every call passes. Safe, as `mark-static`, when every call in the file passes a hashable value (an
int): not offered when some call passes an array for it.
"""

from __future__ import annotations

from jaxerr_ls.fixes import mark_static
from jaxerr_ls.fixes.base import FixContext, ProposedFix
from jaxerr_ls.fixes.common import is_call_to, open_file
from jaxerr_ls.fixes.syntax import funcdef_name, funcdef_params, funcdefs_at
from jaxerr_ls.fixes.usage import function_defined_at, model_of, passed_unhashable

LOOP_NAMES = frozenset({"jax.lax.fori_loop"})


class _StaticLoopBounds:
    id = "static-loop-bounds"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        model = model_of(ctx.source)
        functions = funcdefs_at(file.module, file.line)
        if model is None or not functions:
            return None
        funcdef = functions[0]
        params = funcdef_params(funcdef)
        traced = function_defined_at(model, funcdef.start[0] - 1, funcdef_name(funcdef))
        if traced is None:
            return None
        for call in file.calls:
            if not is_call_to(file, call, LOOP_NAMES):
                continue
            bounds = [a.value for a in call.args()[:2] if a.keyword is None and not a.star]
            names = [b.value for b in bounds if b.is_name() and b.value in params]
            names = [n for n in dict.fromkeys(names) if (p := traced.param(n)) and not p.static]
            if not names or any(passed_unhashable(model, traced, n) for n in names):
                continue
            rating = mark_static.Rating(self.id, self.safe)
            shown = ", ".join(f"'{n}'" for n in names)
            title = f"Mark the loop bound {shown} as static (static_argnames)"
            return mark_static.propose_at(rating, file, names, None, title)
        return None


FIX = _StaticLoopBounds()
