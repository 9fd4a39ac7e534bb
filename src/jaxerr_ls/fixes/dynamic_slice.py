"""`dynamic-slice`: `x[i:i + 3]` with a traced `i` -> `jax.lax.dynamic_slice_in_dim(x, i, 3)`.

Under `jit` a slice needs static bounds; a window of static length at a traced start is what
`dynamic_slice_in_dim` computes. Offered only when the stop is the start plus an integer literal
(the length must be static), on the first axis, without a step. Not safe: where Python slicing
would return fewer elements at the array's end, `dynamic_slice_in_dim` moves the start back so
the window stays whole, and the title says so.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import open_file, proposal, replace
from jaxerr_ls.fixes.imports import spell_or_import
from jaxerr_ls.fixes.syntax import Node, statement_at


def _window(subscript: Node) -> tuple[str, str] | None:
    """(start, length) for `start:start + K`; None for any other slice."""
    kids = subscript.children
    if subscript.type != "subscript" or len(kids) != 3 or not kids[1].is_op(":"):
        return None
    start, stop = kids[0], kids[2]
    parts = stop.children
    if stop.type != "arith_expr" or len(parts) != 3 or not parts[1].is_op("+"):
        return None
    length = parts[2]
    if parts[0].code() != start.code() or length.type != "number" or not length.value.isdigit():
        return None
    return start.code(), length.value


def _sliced(stmt: Node) -> list[tuple[Node, str, str, str]]:
    """(node, array, start, length) for each `array[start:start + K]` in the statement."""
    found = []
    for node in stmt.walk():
        if node.type != "atom_expr":
            continue
        *base, last = node.children
        if last.type != "trailer" or not last.children[0].is_op("[") or len(last.children) != 3:
            continue
        window = _window(last.children[1])
        if window is None or any(t.type == "trailer" and t.children[0].is_op("(") for t in base):
            continue
        array = "".join(part.code() if i == 0 else part.full_code() for i, part in enumerate(base))
        found.append((node, array, *window))
    return found


class _DynamicSlice:
    id = "dynamic-slice"
    safe = False

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        stmt = statement_at(file.module, file.line)
        if stmt is None:
            return None
        spelled = spell_or_import(file.imports, "jax.lax.dynamic_slice_in_dim", ("jax", "jax"))
        if spelled is None:
            return None
        edits: list[TextEdit] = []
        for node, array, start, length in _sliced(stmt):
            if node.start[0] != file.line or not file.cursor_in(node.start, node.end):
                continue
            edits.append(
                replace(node.start, node.end, f"{spelled.text}({array}, {start}, {length})")
            )
        title = "Use jax.lax.dynamic_slice_in_dim (at the end, shifts the window to stay whole)"
        return proposal(self.id, title, self.safe, edits, file.imports, spelled)


FIX = _DynamicSlice()
