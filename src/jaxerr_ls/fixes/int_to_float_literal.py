"""`int-to-float-literal`: `jax.grad(f)(3)` -> `jax.grad(f)(3.0)`.

Safe: differentiation needs float inputs, so the integer call can only raise; `3.0` is the same
number as a float. Only decimal integer literals (optionally negated) in the differentiated
positions (`argnums`, default 0) are changed: the argument itself (`3`), the literals it is built
from (`[1, 2]`, `jnp.array([1, 2])` without a dtype), or the literal a name passed there was
assigned (`x0 = 4`). When that name is read elsewhere too (printed, used as a count), its
assignment is left alone: a scalar is converted where it is differentiated (`grad(f)(float(x0))`),
the value every other use sees unchanged; an array literal is changed at its assignment only as an
unsafe fix (the other uses may depend on its integer dtype).
"""

from __future__ import annotations

import ast

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import (
    File,
    assigned_value,
    callee_call,
    open_file,
    proposal,
    replace_node,
)
from jaxerr_ls.fixes.syntax import Call, Node, as_call

GRAD_NAMES = frozenset(
    {"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian"}
)


def argnums(call: Call) -> tuple[int, ...] | None:
    """The literal `argnums=` of a grad call (default 0); None when not a literal."""
    for arg in call.args():
        if arg.keyword == "argnums":
            try:
                value = ast.literal_eval(arg.value.code())
            except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
                return None
            if isinstance(value, int):
                return (value,)
            if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
                return value
            return None
    return (0,)


def _int_literal(node: Node) -> Node | None:
    """The number leaf of `3`, `-3`, `1_000`; None for floats, hex, and everything else."""
    if node.type == "factor" and node.children[0].value in ("-", "+"):
        node = node.children[1]
    text = node.value.replace("_", "")
    if node.type == "number" and text.isdigit() and (text == "0" or not text.startswith("0")):
        return node
    return None


_ARRAY_MAKERS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "numpy.array", "numpy.asarray"})


def _int_leaves(file: File, value: Node) -> list[Node] | None:
    """The integer literals an input is built from: `3`, `[1, 2]`, `jnp.array([1, 2])` (no
    dtype); None when it is anything else (a float already, a computed value)."""
    leaf = _int_literal(value)
    if leaf is not None:
        return [leaf]
    call = as_call(value)
    if call is not None:
        if file.qualify(call.callee_dotted()) not in _ARRAY_MAKERS:
            return None
        args = call.args()
        if len(args) != 1 or args[0].keyword is not None or args[0].star:
            return None  # a dtype= (or a second argument) decides the dtype: left alone
        value = args[0].value
    if value.type != "atom" or value.children[0].value not in ("[", "("):
        return None
    leaves: list[Node] = []
    for node in value.walk():
        if node.is_leaf and node.type not in ("operator",):
            found = _int_literal(node)
            if found is None:
                return None
            leaves.append(found)
    for node in value.walk():
        if node.type == "factor" and node.children[0].value in ("-", "+"):
            continue
        if not node.is_leaf and node.type not in ("atom", "testlist_comp", "factor"):
            return None  # anything but nested displays of literals
    return leaves or None


def _other_uses(file: File, name: Node) -> bool:
    """Whether the name is read anywhere but here (and its assignment)."""
    reads = [
        leaf
        for leaf in file.module.walk()
        if leaf.is_name(name.value) and leaf != name and not _assigned_here(leaf)
    ]
    return bool(reads)


def _assigned_here(leaf: Node) -> bool:
    parent = leaf.parent
    return (
        parent is not None
        and parent.type == "expr_stmt"
        and parent.children[0] == leaf
        and parent.children[1].is_op("=")
    )


class _IntToFloat:
    id = "int-to-float-literal"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        edits: list[TextEdit] = []
        safe = self.safe
        for call in file.calls:
            maker = callee_call(file, call)
            if maker is None or file.qualify(maker.callee_dotted()) not in GRAD_NAMES:
                continue
            positions = argnums(maker)
            if positions is None:
                continue
            positional = [a for a in call.args() if a.keyword is None and not a.star]
            for index in positions:
                if index >= len(positional):
                    continue
                value = positional[index].value
                if not file.cursor_in(value.start, value.end):
                    continue
                built = _int_leaves(file, value)
                if built is None and value.is_name():
                    # `x0 = 4` then `grad(f)(x0)`: the literal is where the name is assigned.
                    assigned = assigned_value(file, value)
                    built = None if assigned is None else _int_leaves(file, assigned)
                    if built is not None and _other_uses(file, value):
                        if assigned is not None and _int_literal(assigned) is not None:
                            # A scalar read elsewhere too (`print(x0)`): convert it only here.
                            edits.append(replace_node(value, f"float({value.value})"))
                            continue
                        safe = False  # an array used elsewhere, where its int dtype may matter
                edits += [replace_node(leaf, leaf.value + ".0") for leaf in built or ()]
        if not edits:
            return None
        # Name the literal being changed ("2 -> 2.0"); several on one line are summed up.
        first = edits[0].new_text
        if first.startswith("float("):
            shown = f"{first[6:-1]} -> {first}"
        else:
            shown = f"{first[:-2]} -> {first}"
        if len(edits) > 1:
            shown = "integer literals -> floats"
        title = f"Pass a float literal ({shown}) where grad needs floats"
        if not safe:
            title += " (the name is used elsewhere too)"
        return proposal(self.id, title, safe, edits, file.imports)


FIX = _IntToFloat()
