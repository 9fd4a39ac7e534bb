"""`pass-ref-not-value`: `plgpu.remote_ref(x_ref[...], ...)` -> `plgpu.remote_ref(x_ref, ...)`.

Safe: these Mosaic GPU helpers accept only references, so the loaded-value call always raises;
`x_ref[...]` loads the whole buffer, so the whole ref is what was meant. A partial load
`x_ref[i]` becomes the ref slice `x_ref.at[i]`.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import insert, open_file, proposal, replace_node
from jaxerr_ls.fixes.syntax import Node

_MODULE = "jax.experimental.pallas.mosaic_gpu."
_TAKE_REFS = frozenset({"remote_ref", "multicast_ref", "cluster_ref", "transform_ref"})


def _load(node: Node) -> tuple[Node, bool] | None:
    """(the `[...]` trailer, whether it loads everything) for `x_ref[...]` / `self.x_ref[i]`."""
    if node.type != "atom_expr" or not node.children[0].is_name():
        return None
    *base, last = node.children
    if last.type != "trailer" or not last.children[0].is_op("["):
        return None
    if any(t.type != "trailer" or not t.children[0].is_op(".") for t in base[1:]):
        return None
    if len(base) > 1 and base[-1].children[1].is_name("at"):
        return None  # `x_ref.at[i]` is already a ref
    inside = last.children[1:-1]
    whole = len(inside) == 1 and inside[0].code() in ("...", ":")
    return last, whole


class _PassRef:
    id = "pass-ref-not-value"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        edits: list[TextEdit] = []
        for call in file.calls:
            qualified = file.qualify(call.callee_dotted())
            if qualified is None or not qualified.startswith(_MODULE):
                continue
            if qualified[len(_MODULE) :] not in _TAKE_REFS:
                continue
            args = call.args()
            ref = [a for a in args if a.keyword == "ref"] or [
                a for a in args[:1] if a.keyword is None and not a.star
            ]
            found = _load(ref[0].value) if ref else None
            if found is None or not file.cursor_in(call.start, call.end):
                continue
            trailer, whole = found
            edits.append(replace_node(trailer, "") if whole else insert(trailer.start, ".at"))
        title = "Pass the ref itself, not its loaded value"
        return proposal(self.id, title, self.safe, edits, file.imports)


FIX = _PassRef()
