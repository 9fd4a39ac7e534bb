"""`has-aux`: `jax.grad(f)` where `f` returns a pair -> `jax.grad(f, has_aux=True)`.

Unsafe: with `has_aux=True` the transformed function returns `(grad, aux)` (or `((value, aux),
grad)` for value_and_grad), so code using the result must unpack it. Offered for grad-style
calls without `has_aux`, when `f` is defined in the file and returns a 2-tuple, or (with a
diagnostic) when `f` cannot be seen.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix
from jaxerr_ls.fixes.common import (
    File,
    callee_call,
    first_arg_name,
    funcdef_named,
    open_file,
    proposal,
)
from jaxerr_ls.fixes.mark_static import add_keyword
from jaxerr_ls.fixes.syntax import Call, Node, scope_nodes

HAS_AUX_NAMES = frozenset(
    {"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian"}
)


# Expressions that evaluate to a number/array/bool, never to a tuple.
_NOT_TUPLES = frozenset(
    {"number", "string", "atom", "arith_expr", "term", "factor", "power", "comparison"}
    | {"not_test", "and_test", "or_test", "shift_expr", "and_expr", "xor_expr", "expr"}
)


def returns_pair(funcdef: Node) -> bool | None:
    """True when every `return` gives a 2-tuple; False when one clearly does not; else None."""
    verdicts: list[bool | None] = []
    for node in scope_nodes(funcdef):
        if node.type == "return_stmt":
            kids = node.children
            value = kids[1] if len(kids) > 1 else None
            if value is None:
                verdicts.append(False)
            elif value.type == "testlist_star_expr" or value.type == "testlist":
                verdicts.append(len([c for c in value.children if not c.is_op(",")]) == 2)
            elif value.type == "atom" and value.children[0].is_op("("):
                inner = value.children[1]
                pair = (
                    inner.type == "testlist_comp"
                    and len([c for c in inner.children if not c.is_op(",")]) == 2
                )
                verdicts.append(True if pair else None)
            elif value.type in _NOT_TUPLES:
                verdicts.append(False)
            else:
                verdicts.append(None)
    if not verdicts or any(v is False for v in verdicts):
        return False
    return True if all(verdicts) else None


def _grad_calls(file: File) -> list[Call]:
    found = []
    for call in file.calls:
        for candidate in (call, callee_call(file, call)):
            if candidate is not None and file.qualify(candidate.callee_dotted()) in HAS_AUX_NAMES:
                found.append(candidate)
    return list(dict.fromkeys(found))


class _HasAux:
    id = "has-aux"
    safe = False

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        for call in _grad_calls(file):
            if any(a.keyword == "has_aux" for a in call.args()) or not call.args():
                continue
            if not file.cursor_in(call.start, call.end):
                continue
            name = first_arg_name(call)
            funcdef = funcdef_named(file, name) if name else None
            verdict = returns_pair(funcdef) if funcdef is not None else None
            if verdict is False or (verdict is None and ctx.entry_id is None):
                continue
            edit = add_keyword(call, "has_aux=True")
            title = "Use has_aux=True (changes behaviour: returns (grad, aux))"
            return proposal(self.id, title, self.safe, [edit], file.imports)
        return None


FIX = _HasAux()
