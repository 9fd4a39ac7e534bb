"""`cond-to-where`: `lax.cond(pred, true_fun, false_fun, *operands)` with an array predicate ->
`jnp.where(pred, <true branch>, <false branch>)`.

`lax.cond` picks one branch for the whole computation, so it needs a scalar predicate; a predicate
with one truth value per element asks for the element-wise choice `jnp.where` makes. Each branch
becomes an expression: a lambda's body with its parameters replaced by the operands, or a call of a
named branch function on the operands.

Not safe in general: `jnp.where` evaluates both branches (side effects run; an untaken branch's
NaN or inf can leak into gradients) and broadcasts them to one shape. The title says so. Safe when
the predicate and both lambda bodies evaluate safely either way (see `pure`): a scalar-predicate
`cond` computes the same per element; an array predicate is only meaningful per element.
Branches returning tuples or other containers are left alone (`jnp.where` would stack them).
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix
from jaxerr_ls.fixes.common import is_call_to, jnp_file, proposal, replace
from jaxerr_ls.fixes.pure import evaluates_safely
from jaxerr_ls.fixes.syntax import Node

COND_NAMES = frozenset({"jax.lax.cond"})
_TITLE = "Use jnp.where (changes behaviour: chooses per element, evaluates both branches)"
_SAFE_TITLE = "Use jnp.where (element-wise choice)"
# Expressions safe to paste where an operand was without parentheses.
_ATOMIC = frozenset({"name", "number", "atom", "atom_expr", "string", "power"})


def _operand_text(node: Node) -> str:
    code = node.code()
    return code if node.type in _ATOMIC and node.type != "power" else f"({code})"


def _inline(lambdef: Node, operands: list[Node]) -> str | None:
    """The lambda's body with its parameters replaced by the operands' text."""
    kids = lambdef.children
    params = [p for p in kids[1:-2] if p.type == "param" or p.is_name()]
    names: list[str] = []
    for param in params:
        first = param.children[0] if param.type == "param" else param
        if not first.is_name() or (param.type == "param" and len(param.children) > 2):
            return None  # defaults, *args: not a plain positional parameter
        names.append(first.value)
    if len(names) != len(operands):
        return None
    body = kids[-1]
    if any(
        n.type in ("lambdef", "comp_for", "sync_comp_for", "namedexpr_test") for n in body.walk()
    ):
        return None  # names could be rebound inside: not a plain substitution
    if body.type in ("testlist", "testlist_star_expr") or _is_container(body):
        return None
    by_name = dict(zip(names, (_operand_text(o) for o in operands), strict=True))
    pieces: list[str] = []
    for leaf in (n for n in body.walk() if n.is_leaf):
        text = leaf.value
        if leaf.is_name() and leaf.value in by_name and not _attribute_or_keyword(leaf):
            text = by_name[leaf.value]
        pieces.append((leaf.prefix if pieces else "") + text)
    return "".join(pieces)


def _is_container(node: Node) -> bool:
    """A list, dict or set display, or a tuple in parentheses."""
    if node.type != "atom":
        return False
    kids = node.children
    if kids[0].value in ("[", "{") or len(kids) == 2:
        return True
    inner = kids[1]
    return inner.type == "testlist_comp" and any(c.is_op(",") for c in inner.children)


def _attribute_or_keyword(leaf: Node) -> bool:
    parent = leaf.parent
    if parent is None:
        return False
    if parent.type == "trailer" and parent.children[0].is_op("."):
        return True
    siblings = parent.children
    return parent.type == "argument" and siblings[0] == leaf and len(siblings) == 3


def _branch(fun: Node, operands: list[Node]) -> str | None:
    if fun.type == "lambdef":
        return _inline(fun, operands)
    if fun.is_name() or fun.type == "atom_expr" and fun.children[-1].children[0].is_op("."):
        return f"{fun.code()}({', '.join(o.code() for o in operands)})"
    return None


class _CondToWhere:
    id = "cond-to-where"
    safe = False

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = jnp_file(ctx)
        if file is None:
            return None
        for call in file.index.calls:
            if not is_call_to(file, call, COND_NAMES) or not file.cursor_in(*call.text_range()):
                continue
            start, end = call.text_range()
            if not start[0] <= file.line <= end[0]:
                continue
            args = call.args()
            if len(args) < 3 or any(a.keyword is not None or a.star for a in args):
                continue
            pred, true_fun, false_fun = (a.value for a in args[:3])
            operands = [a.value for a in args[3:]]
            when_true = _branch(true_fun, operands)
            when_false = _branch(false_fun, operands)
            if when_true is None or when_false is None:
                continue
            text = f"{file.jnp.text}.where({pred.code()}, {when_true}, {when_false})"
            edit = replace(start, end, text)
            branches = [
                f.children[-1] if f.type == "lambdef" else None for f in (true_fun, false_fun)
            ]
            if all(b is not None and evaluates_safely(file, b) for b in [pred, *branches]):
                return proposal(self.id, _SAFE_TITLE, True, [edit], file.imports, file.jnp)
            return proposal(self.id, _TITLE, self.safe, [edit], file.imports, file.jnp)
        return None


FIX = _CondToWhere()
