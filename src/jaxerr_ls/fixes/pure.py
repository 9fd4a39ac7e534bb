"""Whether an expression is safe to evaluate when its result is not wanted (`jnp.where` evaluates
both branches): built from names, numbers, `+ - *`, comparisons, indexing and a few total
element-wise jax.numpy functions. Division, powers, logs, square roots and other calls can give
NaN or inf on the elements the condition discards, which then leak into gradients."""

from __future__ import annotations

from jaxerr_ls.fixes.common import File
from jaxerr_ls.fixes.syntax import Node, is_call_trailer

_TOTAL = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "zeros_like",
        "ones_like",
        "full_like",
        "maximum",
        "minimum",
        "abs",
        "absolute",
        "clip",
        "where",
        "square",
        "negative",
        "sign",
    )
)
_UNSAFE_OPERATORS = frozenset({"/", "//", "%", "**", "@", ":="})
_KEYWORDS = frozenset({"True", "False", "None", "and", "or", "not", "in", "is", "if", "else"})


def evaluates_safely(file: File, expr: Node) -> bool:
    for node in expr.walk():
        if node.is_leaf:
            if node.type == "operator" and node.value in _UNSAFE_OPERATORS:
                return False
            if node.type == "keyword" and node.value not in _KEYWORDS:
                return False
            if node.type in ("string", "fstring_start", "errorleaf"):
                return False
            continue
        if node.type in ("lambdef", "comp_for", "sync_comp_for"):
            return False
        if node.type == "atom_expr":
            for index, trailer in enumerate(node.children):
                if index and is_call_trailer(trailer):
                    parts = node.children[:index]
                    dotted = ".".join(p.value if p.is_leaf else p.children[-1].value for p in parts)
                    if file.qualify(dotted) not in _TOTAL:
                        return False
    return True
