"""`grad-to-jacobian`: `jax.grad(f)` of a non-scalar function -> `jax.jacobian(f)`.

Changes behaviour (safe=False, never preferred): `grad` is only defined for scalar outputs, and
the Jacobian is a different object (one more axis per output dimension). Often the intended fix
is to reduce the output to a scalar instead (e.g. `jnp.sum`), which only the user can decide.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix
from jaxerr_ls.fixes.common import callee_call, open_file, proposal, replace
from jaxerr_ls.fixes.imports import spell_or_import


class _GradToJacobian:
    id = "grad-to-jacobian"
    safe = False

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        for outer in file.calls:
            for call in (outer, callee_call(file, outer)):
                if call is None or file.qualify(call.callee_dotted()) != "jax.grad":
                    continue
                if not file.cursor_in(outer.start, outer.end):
                    continue
                jacobian = spell_or_import(file.imports, "jax.jacobian", ("jax", "jax"))
                if jacobian is None:
                    return None
                parts = call.callee_parts()
                edit = replace(parts[0].start, parts[-1].end, jacobian.text)
                title = "Use jax.jacobian (changes behaviour: returns the full Jacobian)"
                return proposal(self.id, title, self.safe, [edit], file.imports, jacobian)
        return None


FIX = _GradToJacobian()
