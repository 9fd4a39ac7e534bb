"""`at-set`: `x[i] = v` -> `x = x.at[i].set(v)`; `x[i] += v` -> `x = x.at[i].add(v)`, and so on.

Safe: JAX arrays are immutable, so the original statement can only raise; the functional update
computes the array the statement meant. (One caveat we accept: with repeated indices `.add`
accumulates, where NumPy's `x[idx] += v` would apply once.)
Only plain targets are rewritten (`x[...]`, `self.x[...]`); `x[i][j] = v` and chained
assignments are left alone.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix
from jaxerr_ls.fixes.common import open_file, proposal, replace_node
from jaxerr_ls.fixes.syntax import Node, contains, header_nodes, statement_at

# The `.at[]` methods of JAX 0.10.2 (checked against `jnp.zeros(1).at[0]`).
_METHODS = {
    "=": "set",
    "+=": "add",
    "-=": "subtract",
    "*=": "multiply",
    "/=": "divide",
    "**=": "power",
}


def _target(node: Node) -> tuple[str, str] | None:
    """(`x`, `i`) for `x[i]` or (`self.x`, `i`) for `self.x[i]`."""
    if node.type != "atom_expr":
        return None
    kids = node.children
    last = kids[-1]
    if last.type != "trailer" or not last.children[0].is_op("["):
        return None
    if not kids[0].is_name():
        return None
    for trailer in kids[1:-1]:
        if trailer.type != "trailer" or not trailer.children[0].is_op("."):
            return None
    base = "".join(k.code() if i == 0 else k.full_code() for i, k in enumerate(kids[:-1]))
    index = "".join(k.full_code() for k in last.children[1:-1]).strip()
    return base, index


class _AtSet:
    id = "at-set"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        stmt = statement_at(file.module, file.line)
        parts = header_nodes(stmt) if stmt is not None else ()
        for node in (n for part in parts for n in part.walk()):
            if node.type != "expr_stmt" or not contains(node, file.line):
                continue
            kids = node.children
            if len(kids) != 3 or kids[1].value not in _METHODS:
                continue
            if not file.cursor_in(node.start, node.end):
                continue
            target = _target(kids[0])
            if target is None or kids[2].type in ("annassign",):
                continue
            base, index = target
            method = _METHODS[kids[1].value]
            value = kids[2].full_code().strip()
            if kids[2].type == "yield_expr":
                continue
            if kids[2].type in ("testlist_star_expr", "testlist"):
                value = f"({value})"  # `x[i] = a, b` sets a tuple
            text = f"{base} = {base}.at[{index}].{method}({value})"
            title = f"Use x.at[i].{method}(v)"
            return proposal(self.id, title, self.safe, [replace_node(node, text)], file.imports)
        return None


FIX = _AtSet()
