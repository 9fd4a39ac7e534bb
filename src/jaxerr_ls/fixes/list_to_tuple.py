"""`list-to-tuple`: a list literal passed as a static argument of a jitted function -> a tuple.

Safe: static arguments must be hashable, so the list call can only raise; the tuple holds the same
items (nested list literals become tuples too). Offered only where the static positions are known:
`jax.jit(f, static_argnums=...)` / `static_argnames=...` (inline or assigned to a name), or a `def`
decorated with `@partial(jax.jit, static_...)` / `@jax.jit(static_...)`. The fix follows the
value: every other call of the same jitted function in the file that passes a list literal there
gets the same change (the next call would raise the same error, jax#2813).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import (
    JIT_NAMES,
    PARTIAL_NAMES,
    File,
    callee_call,
    first_arg_name,
    funcdef_named,
    insert,
    open_file,
    proposal,
    replace_node,
)
from jaxerr_ls.fixes.syntax import Arg, Call, Node, as_call, decorators_of, funcdef_params


@dataclass(frozen=True)
class _Static:
    nums: frozenset[int]
    names: frozenset[str]


def _literal(node: Node) -> object:
    try:
        return ast.literal_eval(node.code())
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None


def _spec(call: Call, params: list[str]) -> _Static:
    nums: set[int] = set()
    names: set[str] = set()
    for arg in call.args():
        value = (
            _literal(arg.value) if arg.keyword in ("static_argnums", "static_argnames") else None
        )
        items = value if isinstance(value, (tuple, list)) else (value,)
        for item in items:
            if arg.keyword == "static_argnums" and isinstance(item, int):
                nums.add(item)
            elif arg.keyword == "static_argnames" and isinstance(item, str):
                names.add(item)
    nums.update(i for i, p in enumerate(params) if p in names)
    names.update(params[i] for i in nums if 0 <= i < len(params))
    return _Static(frozenset(nums), frozenset(names))


def _static_of(file: File, call: Call) -> _Static | None:
    maker = callee_call(file, call)
    if maker is not None:
        qualified = file.qualify(maker.callee_dotted())
        if qualified in JIT_NAMES:
            name = first_arg_name(maker)
            funcdef = funcdef_named(file, name) if name else None
            return _spec(maker, funcdef_params(funcdef) if funcdef else [])
        return None
    parts = call.callee_parts()
    if len(parts) != 1 or not parts[0].is_name():
        return None
    funcdef = funcdef_named(file, parts[0].value)
    if funcdef is None:
        return None
    for decorator in decorators_of(funcdef):
        jit_call = as_call(decorator.children[1])
        if jit_call is None:
            continue
        qualified = file.qualify(jit_call.callee_dotted())
        args = jit_call.args()
        if qualified in PARTIAL_NAMES and args and file.qualify(args[0].value.code()) in JIT_NAMES:
            return _spec(jit_call, funcdef_params(funcdef))
        if qualified in JIT_NAMES:
            return _spec(jit_call, funcdef_params(funcdef))
    return None


def _is_list_display(node: Node) -> bool:
    if node.type != "atom" or not node.children[0].is_op("["):
        return False
    inner = node.children[1] if len(node.children) == 3 else None
    return inner is None or not any(c.type in ("comp_for", "sync_comp_for") for c in inner.children)


def tuple_edits(node: Node) -> list[TextEdit] | None:
    """Edits turning a list display (and list displays nested in it) into tuples."""
    if not _is_list_display(node):
        return None
    edits: list[TextEdit] = []
    for sub in node.walk():
        if sub.type == "atom" and sub.children[0].is_op("["):
            if not _is_list_display(sub):
                return None
            kids = sub.children
            edits.append(replace_node(kids[0], "("))
            if len(kids) == 3 and not (
                kids[1].type == "testlist_comp" and len(kids[1].children) > 1
            ):
                edits.append(insert(kids[1].end, ","))  # a one-item tuple needs its comma
            edits.append(replace_node(kids[-1], ")"))
    return edits


def _static_args(call: Call, static: _Static) -> list[Arg]:
    positional = [a for a in call.args() if a.keyword is None]
    if any(a.star for a in positional):
        positional = positional[: next(i for i, a in enumerate(positional) if a.star)]
    chosen = [a for i, a in enumerate(positional) if i in static.nums]
    chosen += [a for a in call.args() if a.keyword is not None and a.keyword in static.names]
    return chosen


class _ListToTuple:
    id = "list-to-tuple"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        edits: list[TextEdit] = []
        callees: set[str] = set()
        for call in file.calls:
            static = _static_of(file, call)
            if static is None:
                continue
            for arg in _static_args(call, static):
                if not file.cursor_in(arg.value.start, arg.value.end):
                    continue
                more = tuple_edits(arg.value)
                if more:
                    edits.extend(more)
                    callees.add(call.callee_dotted() or "")
        callees.discard("")  # `jax.jit(f)(x, [1])`: a callee without a name is called once
        here = set(file.calls)
        for call in file.index.calls:
            if call in here or call.callee_dotted() not in callees:
                continue
            static = _static_of(file, call)
            for arg in _static_args(call, static) if static is not None else ():
                edits.extend(tuple_edits(arg.value) or ())
        return proposal(self.id, "Pass a tuple instead of a list", self.safe, edits, file.imports)


FIX = _ListToTuple()
