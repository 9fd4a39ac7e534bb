"""`mask-reduce-where`: a reduction of boolean-mask indexing -> the same reduction over the
whole array with the mask as a choice: `x[m].sum()` -> `jnp.where(m, x, 0).sum()`,
`x[m].mean()` -> `x.mean(where=m)`, `jnp.max(x[m])` -> `jnp.max(jnp.where(m, x, -jnp.inf))`.

Boolean indexing has a data-dependent shape, which jit cannot trace; a reduction does not need
the selected elements as an array of their own. Safe for sum, prod, any, all and mean (the same
number, an empty selection included) when the mask is a comparison of the indexed array itself, so
it has its shape. Not safe when the mask is some other expression (it must have the array's shape,
which the text does not show), nor for max and min (an empty selection gives -inf/inf instead of an
error, and an integer array becomes float). Titles say so. Indices made from a mask by
`jnp.nonzero(m)` / `jnp.where(m)` select the same elements as the mask `m != 0` (`m` itself when it
is a comparison): `a[jnp.nonzero(a)].prod()` -> `jnp.where(a != 0, a, 1).prod()` (jax#5280). A
mask kept in a variable is judged by the value it was assigned (`m = x > 0`, then `x[m].sum()`).
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxerr_ls.edits.text import line_starts, offset_of
from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import File, assigned_value, jnp_file, proposal, replace
from jaxerr_ls.fixes.syntax import (
    Node,
    Pos,
    as_call,
    header_nodes,
    is_call_trailer,
    statement_at,
)

# reduction -> the value a masked-out element takes (None: use `where=`), exact on empty input?
_FILL = {
    "sum": ("0", True),
    "prod": ("1", True),
    "any": ("False", True),
    "all": ("True", True),
    "mean": (None, True),
    "max": ("-{jnp}.inf", False),
    "min": ("{jnp}.inf", False),
}
_COMPARISONS = frozenset({"<", ">", "<=", ">=", "==", "!="})


@dataclass(frozen=True)
class _Masked:
    array: str  # `x`
    mask: Node  # `m`
    text: str  # the mask as written in the rewrite: `m`, or `m != 0` for `jnp.nonzero(m)`
    own: bool = False  # `x[jnp.nonzero(x)]`: the mask is the array's own (its shape)


_INDICES_OF = frozenset({"jax.numpy.nonzero", "jax.numpy.where"})


def _indices_of(mask: Node, file: File) -> Node | None:
    """`m` of `jnp.nonzero(m)` / one-argument `jnp.where(m)` used as an index."""
    call = as_call(mask)
    if call is None or file.qualify(call.callee_dotted()) not in _INDICES_OF:
        return None
    args = call.args()
    if len(args) != 1 or args[0].keyword is not None or args[0].star:
        return None
    return args[0].value


def _masked(kids: tuple[Node, ...], file: File) -> _Masked | None:
    """`x[m]` from an atom_expr's parts: a base, then a one-expression subscript last."""
    if len(kids) < 2:
        return None
    last = kids[-1]
    if last.type != "trailer" or not last.children[0].is_op("[") or len(last.children) != 3:
        return None
    mask = last.children[1]
    if mask.type in ("subscript", "subscriptlist", "sliceop") or mask.is_op(":"):
        return None
    array = _between(file.source, kids[0].start, last.start)
    if mask.is_name():
        # A mask kept in a variable: its value decides (`m = x > 0` ... `x[m].sum()`).
        kept = assigned_value(file, mask)
        own = kept is not None and _compares(kept, array)
        return _Masked(array, mask, mask.code(), own=own)
    inner = _indices_of(mask, file)
    if inner is not None:
        text = inner.code() if inner.type == "comparison" else f"{inner.code()} != 0"
        return _Masked(array, inner, text, own=inner.code() == array)
    return _Masked(array, mask, mask.code())


def _between(source: str, start: Pos, end: Pos) -> str:
    starts = line_starts(source)
    first = offset_of(source, starts, start[0] - 1, start[1])
    return source[first : offset_of(source, starts, end[0] - 1, end[1])]


def _compares(node: Node, array: str) -> bool:
    """`x > 0`, `limit <= x`: a comparison of `array` itself, so of its shape."""
    if node.type != "comparison" or len(node.children) != 3:
        return False
    if node.children[1].code() not in _COMPARISONS:
        return False
    return array in (node.children[0].code(), node.children[2].code())


def _same_shape(masked: _Masked) -> bool:
    """The mask compares the indexed array itself (`x > 0`, `limit <= x`), or is the array."""
    return masked.own or _compares(masked.mask, masked.array)


def _rewrite(masked: _Masked, reduction: str, jnp: str, method: bool) -> tuple[str, bool]:
    fill, exact = _FILL[reduction]
    mask = masked.text
    if fill is None:
        inner = f"{masked.array}, where={mask}"
        text = f"{masked.array}.{reduction}(where={mask})" if method else inner
    else:
        chosen = f"{jnp}.where({mask}, {masked.array}, {fill.format(jnp=jnp)})"
        text = f"{chosen}.{reduction}()" if method else chosen
    return text, exact and _same_shape(masked)


def _candidates(file: File, jnp: str) -> list[tuple[Node, str, bool]]:
    """(node to replace, its replacement, safe) for every masked reduction on the line."""
    stmt = statement_at(file.module, file.line)
    found: list[tuple[Node, str, bool]] = []
    for part in header_nodes(stmt) if stmt is not None else ():
        for node in part.walk():
            if node.type != "atom_expr":
                continue
            kids = node.children
            # x[m].sum(): the subscript, `.sum`, and an empty call, at the end of the expression
            if (
                len(kids) >= 4
                and is_call_trailer(kids[-1])
                and len(kids[-1].children) == 2
                and kids[-2].children[0].is_op(".")
                and kids[-2].children[1].value in _FILL
            ):
                masked = _masked(kids[:-2], file)
                if masked is not None:
                    text, safe = _rewrite(masked, kids[-2].children[1].value, jnp, True)
                    found.append((node, text, safe))
                continue
            call = as_call(node)
            dotted = call.callee_dotted() if call is not None else None
            qualified = file.qualify(dotted) if dotted is not None else None
            if call is None or qualified is None or not qualified.startswith("jax.numpy."):
                continue
            reduction = qualified.rsplit(".", 1)[-1]
            args = call.args()
            if reduction not in _FILL or len(args) != 1 or args[0].keyword or args[0].star:
                continue
            value = args[0].value
            masked = _masked(value.children, file) if value.type == "atom_expr" else None
            if masked is not None:
                text, safe = _rewrite(masked, reduction, jnp, False)
                found.append((value, text, safe))
    return found


class _MaskReduceWhere:
    id = "mask-reduce-where"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = jnp_file(ctx)
        if file is None:
            return None
        for node, text, safe in _candidates(file, file.jnp.text):
            if not file.cursor_in(node.start, node.end):
                continue
            edits: list[TextEdit] = [replace(node.start, node.end, text)]
            title = f"Reduce with the mask as a choice ({text})"
            if not safe:
                title += " (changes behaviour when nothing is selected, or a mask of another shape)"
            return proposal(self.id, title, safe, edits, file.imports, file.jnp)
        return None


FIX = _MaskReduceWhere()
