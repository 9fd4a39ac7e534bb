"""`api-rename`: a JAX name removed or deprecated in the user's release -> the name JAX's
deprecation message gives, when that is a drop-in rename (`jax.tree_structure` ->
`jax.tree.structure`, `jnp.row_stack` -> `jnp.vstack`). Safe only for the renames
`upgrades/renames.py` vouches for; a replacement that changes behaviour is offered unsafe, with
the reason in its title. The release comes from the diagnostic's fields (`release`), else the
newest catalogued.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix
from jaxerr_ls.upgrades.history import load_history
from jaxerr_ls.upgrades.rewrite import rename_edits


class _ApiRename:
    id = "api-rename"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        release = ctx.fields.get("release") or None
        found = rename_edits(ctx.source, load_history(), release, unsafe=True, line=ctx.line)
        if ctx.column is not None:
            found = [r for r in found if r.edit.start_col <= ctx.column <= r.edit.end_col] or found
        safe = [r for r in found if r.rename.safe]
        chosen = safe or found[:1]
        if not chosen:
            return None
        title = chosen[0].title if len(chosen) == 1 else "Rename removed JAX names on this line"
        return ProposedFix(
            self.id, title, bool(safe), tuple(sorted((r.edit for r in chosen), key=_order))
        )


def _order(edit: object) -> tuple[int, int]:
    return (getattr(edit, "start_line", 0), getattr(edit, "start_col", 0))


FIX = _ApiRename()
