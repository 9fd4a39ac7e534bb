"""`int-to-float-literal`: `jax.grad(f)(3)` -> `jax.grad(f)(3.0)`.

Safe: differentiation needs float inputs, so the integer call can only raise; `3.0` is the same
number as a float. Only decimal integer literals (optionally negated) in the differentiated
positions (`argnums`, default 0) are changed.
"""

from __future__ import annotations

import ast

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import callee_call, open_file, proposal, replace_node
from jaxerr_ls.fixes.syntax import Call, Node

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


class _IntToFloat:
    id = "int-to-float-literal"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        edits: list[TextEdit] = []
        for call in file.calls:
            maker = callee_call(file, call)
            if maker is None or file.qualify(maker.callee_dotted()) not in GRAD_NAMES:
                continue
            positions = argnums(maker)
            if positions is None:
                continue
            positional = [a for a in call.args() if a.keyword is None and not a.star]
            for index in positions:
                if index < len(positional):
                    leaf = _int_literal(positional[index].value)
                    if leaf is not None and file.cursor_in(leaf.start, leaf.end):
                        edits.append(replace_node(leaf, leaf.value + ".0"))
        if not edits:
            return None
        # Name the literal being changed ("2 -> 2.0"); several on one line are summed up.
        first = edits[0].new_text
        shown = f"{first[:-2]} -> {first}" if len(edits) == 1 else "integer literals -> floats"
        title = f"Pass a float literal ({shown}) where grad needs floats"
        return proposal(self.id, title, self.safe, edits, file.imports)


FIX = _IntToFloat()
