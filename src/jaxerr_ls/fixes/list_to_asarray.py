"""`list-to-asarray`: a list passed to a jax.numpy function -> `jnp.asarray([...])`.

Safe: jax.numpy functions refuse Python lists (the call raises); `jnp.asarray` builds the array the
NumPy-style call meant. With a position in the message's fields, the argument there is wrapped
(the message proves it is a list or tuple), and with it every other positional argument that is a
list display or a name assigned one (`jnp.multiply([1.0], [2.0])` fails on both, one at a time);
else every such argument, when the function does not take sequences by design (`jnp.array`,
`jnp.stack`, shapes, ...). For those, when the message names the function, the position is
one of the sequence's items: `jnp.concatenate([[], [1]])` -> `jnp.concatenate([jnp.asarray([]),
jnp.asarray([1])])`, every list display among the items (jax#1013).
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import (
    File,
    JnpFile,
    assigned_value,
    field,
    insert,
    jnp_file,
    proposal,
)
from jaxerr_ls.fixes.syntax import Arg, Node, as_call

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


def _lists_here(file: File, value: Node) -> bool:
    """A list display, or a name last assigned a list display or comprehension."""
    if _is_list(value):
        return True
    if value.is_name():
        assigned = assigned_value(file, value)
        return assigned is not None and _is_list(assigned)
    return False


def _converted(file: File, value: Node) -> bool:
    """`jnp.asarray(...)` / `jnp.array(...)` already."""
    call = as_call(value)
    return call is not None and file.qualify(call.callee_dotted()) in (
        "jax.numpy.asarray",
        "jax.numpy.array",
    )


def _items(file: JnpFile, args: tuple[Arg, ...]) -> list[TextEdit]:
    """The list displays among the items of a sequence argument (`[[], [1]]`)."""
    if not args or args[0].keyword is not None or args[0].star:
        return []
    seq = args[0].value
    if not (_is_list(seq) or _is_tuple(seq)) or len(seq.children) != 3:
        return []
    body = seq.children[1]
    items = (
        [c for c in body.children if not c.is_op(",")] if body.type == "testlist_comp" else [body]
    )
    edits: list[TextEdit] = []
    for item in items:
        if _is_list(item) and file.cursor_in(item.start, item.end):
            edits += [insert(item.start, f"{file.jnp.text}.asarray("), insert(item.end, ")")]
    return edits


class _ListToAsarray:
    id = "list-to-asarray"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = jnp_file(ctx)
        if file is None:
            return None
        # The message names the function and the offending position ("mean ... at position 0"):
        # then the argument there is known to be a list or tuple, whatever expression it is.
        position_text = field(ctx, "position", "pos", "argnum", "index")
        position = int(position_text) if position_text and position_text.isdigit() else None
        named = field(ctx, "fun", "function", "name")
        edits: list[TextEdit] = []
        for call in file.calls:
            qualified = file.qualify(call.callee_dotted())
            if qualified is None or not qualified.startswith("jax.numpy."):
                continue
            function = qualified[len("jax.numpy.") :]
            if function in _TAKES_SEQUENCES:
                if named is not None and named.rsplit(".", 1)[-1] == function:
                    edits += _items(file, call.args())
                continue
            if named is not None and named.rsplit(".", 1)[-1] != function:
                continue
            positional = [a for a in call.args() if a.keyword is None and not a.star]
            if position is not None:
                chosen = [a.value for a in positional[position : position + 1]]
                # The first error is not the last: every other list argument goes too.
                chosen += [
                    a.value
                    for i, a in enumerate(positional)
                    if i != position and _lists_here(file, a.value)
                ]
            else:
                chosen = [a.value for a in positional if _lists_here(file, a.value)]
            for value in chosen:
                if not _converted(file, value) and file.cursor_in(value.start, value.end):
                    edits += [
                        insert(value.start, f"{file.jnp.text}.asarray("),
                        insert(value.end, ")"),
                    ]
        edits.sort(key=lambda e: (e.start_line, e.start_col))
        title = (
            "Convert the list with jnp.asarray"
            if len(edits) == 2
            else ("Convert the lists with jnp.asarray")
        )
        return proposal(self.id, title, self.safe, edits, file.imports, file.jnp)


FIX = _ListToAsarray()
