"""`lax-to-jnp`: `lax.add(a, b)` on mixed dtypes -> `jnp.add(a, b)`.

Unsafe: lax requires equal dtypes; jax.numpy promotes them, so the result's dtype can differ from
what the rest of the code expects (and `lax.div` on integers truncates where `jnp.divide` gives
floats). The title says so. Only lax ops with a jax.numpy twin of the same meaning are mapped.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import field, jnp_file, proposal, replace

_TWINS = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "div": "divide",
    "max": "maximum",
    "min": "minimum",
    "pow": "power",
    "atan2": "arctan2",
    "eq": "equal",
    "ne": "not_equal",
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
}


class _LaxToJnp:
    id = "lax-to-jnp"
    safe = False

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = jnp_file(ctx)
        if file is None:
            return None
        named = field(ctx, "name", "op", "primitive", "fun")
        if named is not None:
            named = named.rsplit(".", 1)[-1]
        edits: list[TextEdit] = []
        used: list[str] = []
        for call in file.calls:
            qualified = file.qualify(call.callee_dotted())
            if qualified is None or not qualified.startswith("jax.lax."):
                continue
            op = qualified[len("jax.lax.") :]
            if op not in _TWINS or (named is not None and op != named):
                continue
            parts = call.callee_parts()
            if file.cursor_in(parts[0].start, call.end):
                edits.append(
                    replace(parts[0].start, parts[-1].end, f"{file.jnp.text}.{_TWINS[op]}")
                )
                used.append(_TWINS[op])
        if not used:
            return None
        title = f"Use jnp.{used[0]} (changes behaviour: promotes dtypes)"
        return proposal(self.id, title, self.safe, edits, file.imports, file.jnp)


FIX = _LaxToJnp()
