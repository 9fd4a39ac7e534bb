"""`list-to-asarray`: a list passed to a jax.numpy function -> `jnp.asarray([...])`.

Safe: jax.numpy functions refuse Python lists (the call raises); `jnp.asarray` builds the array the
NumPy-style call meant. With a position in the message's fields, that argument is wrapped; else
the first positional argument, when it is a list display and the function is not one that takes
sequences by design (`jnp.array`, `jnp.stack`, shapes, ...).
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import field, insert, open_file, proposal
from jaxerr_ls.fixes.imports import spell_or_import
from jaxerr_ls.fixes.syntax import Node

# Functions whose first argument is a sequence (or a shape) on purpose.
_TAKES_SEQUENCES = frozenset(
    {
        "array",
        "asarray",
        "stack",
        "vstack",
        "hstack",
        "dstack",
        "column_stack",
        "row_stack",
        "concatenate",
        "concat",
        "block",
        "zeros",
        "ones",
        "empty",
        "full",
        "broadcast_shapes",
        "meshgrid",
        "ix_",
        "select",
        "einsum",
        "result_type",
        "promote_types",
        "broadcast_arrays",
        "unravel_index",
        "ravel_multi_index",
        "piecewise",
        "iscomplexobj",
        "isrealobj",
        "shape",
        "ndim",
        "size",
        "frombuffer",
        "fromiter",
        "asmatrix",
        "atleast_1d",
        "atleast_2d",
        "atleast_3d",
    }
)


def _is_list(node: Node) -> bool:
    return node.type == "atom" and node.children[0].is_op("[")


def _is_tuple(node: Node) -> bool:
    return (
        node.type == "atom"
        and node.children[0].is_op("(")
        and (
            len(node.children) == 2
            or node.children[1].type == "testlist_comp"
            and node.children[1].children[-1].is_op(",")
            or node.children[1].type == "testlist_comp"
            and any(c.is_op(",") for c in node.children[1].children)
        )
    )


class _ListToAsarray:
    id = "list-to-asarray"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        jnp = spell_or_import(file.imports, "jax.numpy", ("jax.numpy", "jnp"))
        if jnp is None:
            return None
        position_text = field(ctx, "position", "pos", "argnum", "index")
        position = int(position_text) if position_text and position_text.isdigit() else None
        edits: list[TextEdit] = []
        for call in file.calls:
            qualified = file.qualify(call.callee_dotted())
            if qualified is None or not qualified.startswith("jax.numpy."):
                continue
            function = qualified[len("jax.numpy.") :]
            positional = [a for a in call.args() if a.keyword is None and not a.star]
            if position is not None:
                chosen = positional[position : position + 1]
            elif function not in _TAKES_SEQUENCES:
                chosen = positional[:1]
            else:
                continue
            for arg in chosen:
                value = arg.value
                literal = _is_list(value) or (position is not None and _is_tuple(value))
                if literal and file.cursor_in(value.start, value.end):
                    edits += [insert(value.start, f"{jnp.text}.asarray("), insert(value.end, ")")]
        title = "Convert the list with jnp.asarray"
        return proposal(self.id, title, self.safe, edits, file.imports, jnp)


FIX = _ListToAsarray()
