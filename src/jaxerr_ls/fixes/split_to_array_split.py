"""`split-to-array-split`: an uneven `jnp.split(x, n)` -> `jnp.array_split(x, n)`.

Unsafe: `array_split` accepts the uneven division by making the pieces unequal (the first ones one
longer), which code expecting equal pieces may not handle. The title says so.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import open_file, proposal, replace_node


class _SplitToArraySplit:
    id = "split-to-array-split"
    safe = False

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        edits: list[TextEdit] = []
        for call in file.calls:
            if file.qualify(call.callee_dotted()) != "jax.numpy.split":
                continue
            leaf = call.name_leaf()
            if (
                len(call.callee_parts()) > 1
                and leaf is not None
                and leaf.value == "split"
                and file.cursor_in(call.start, call.end)
            ):
                edits.append(replace_node(leaf, "array_split"))
        title = "Use jnp.array_split (changes behaviour: pieces may differ in size)"
        return proposal(self.id, title, self.safe, edits, file.imports)


FIX = _SplitToArraySplit()
