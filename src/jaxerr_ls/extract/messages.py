"""Message templates from the expression a `raise` passes as its message.

A template is the message with every run-time value replaced by `{name}`, the name being the
source of the expression that produced it (`{x.shape}`, `{len(args)}`); literal braces are
doubled, as in `str.format`, so the catalog's matcher reads it unambiguously.
"""

from __future__ import annotations

import ast
import re
import string
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# A local name -> the expression last assigned to it, when that is unambiguous.
Lookup = Callable[[str], "ast.expr | None"]


@dataclass(frozen=True)
class Lit:
    text: str


@dataclass(frozen=True)
class Hole:
    name: str


Piece = Lit | Hole


@dataclass(frozen=True)
class Skip:
    """Why an expression gave no template."""

    reason: str


_PERCENT = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?"  # %(name)s
    r"[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?"  # flags, width, precision
    r"(?P<kind>[diouxXeEfFgGcrsa%])"
)
_TEMPLATE_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
_SPACE = re.compile(r"\s+")
# How many `msg = ...` indirections are followed; one covers `msg = f"..."; raise E(msg)`.
_MAX_LOOKUPS = 2


def _no_lookup(name: str) -> ast.expr | None:
    return None


def template_of(node: ast.expr, lookup: Lookup = _no_lookup) -> str | Skip:
    """The template for a message expression, or why there is none."""
    pieces = _pieces(node, lookup, 0)
    if isinstance(pieces, Skip):
        return pieces
    return render(pieces)


def is_literal_style(node: ast.expr, lookup: Lookup = _no_lookup) -> bool:
    return not isinstance(_pieces(node, lookup, 0), Skip)


def render(pieces: Sequence[Piece]) -> str:
    out: list[str] = []
    for piece in _merge(pieces):
        if isinstance(piece, Lit):
            out.append(piece.text.replace("{", "{{").replace("}", "}}"))
        else:
            out.append("{" + piece.name + "}")
    return "".join(out)


def placeholder_name(node: ast.expr) -> str:
    """The source of an expression as a placeholder name: one line, no braces."""
    text = ast.unparse(node)
    text = text.replace("{", "(").replace("}", ")")
    return _SPACE.sub(" ", text).strip() or "value"


def _merge(pieces: Sequence[Piece]) -> list[Piece]:
    merged: list[Piece] = []
    for piece in pieces:
        if isinstance(piece, Lit) and merged and isinstance(merged[-1], Lit):
            merged[-1] = Lit(merged[-1].text + piece.text)
        elif not (isinstance(piece, Lit) and not piece.text):
            merged.append(piece)
    return merged


def _pieces(node: ast.expr, lookup: Lookup, depth: int) -> list[Piece] | Skip:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return [Lit(node.value)]
        return Skip("message is a non-string constant")
    if isinstance(node, ast.JoinedStr):
        return _fstring(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _concat(node, lookup, depth)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _percent(node, lookup, depth)
    if isinstance(node, ast.Call):
        return _call(node, lookup, depth)
    if isinstance(node, ast.Name):
        if depth >= _MAX_LOOKUPS:
            return Skip("message variable assigned from another variable")
        value = lookup(node.id)
        if value is None:
            return Skip("message variable not assigned once from a literal")
        return _pieces(value, lookup, depth + 1)
    return Skip(f"message is a {type(node).__name__} expression")


def _fstring(node: ast.JoinedStr) -> list[Piece]:
    pieces: list[Piece] = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            pieces.append(Lit(value.value))
        elif isinstance(value, ast.FormattedValue):
            pieces.append(Hole(placeholder_name(value.value)))
    return pieces


def _concat(node: ast.BinOp, lookup: Lookup, depth: int) -> list[Piece] | Skip:
    left = _pieces(node.left, lookup, depth)
    right = _pieces(node.right, lookup, depth)
    if isinstance(left, Skip) and isinstance(right, Skip):
        return Skip("concatenation without literal text")
    # The non-literal side is a run-time value: a placeholder named after it.
    left_pieces = [Hole(placeholder_name(node.left))] if isinstance(left, Skip) else left
    right_pieces = [Hole(placeholder_name(node.right))] if isinstance(right, Skip) else right
    return [*left_pieces, *right_pieces]


def _literal_text(node: ast.expr, lookup: Lookup, depth: int) -> str | Skip:
    """The text of a format string that has no placeholders of its own."""
    pieces = _pieces(node, lookup, depth)
    if isinstance(pieces, Skip):
        return pieces
    if any(isinstance(p, Hole) for p in pieces):
        return Skip("format applied to a string that is already formatted")
    return "".join(p.text for p in pieces if isinstance(p, Lit))


def _percent(node: ast.BinOp, lookup: Lookup, depth: int) -> list[Piece] | Skip:
    text = _literal_text(node.left, lookup, depth)
    if isinstance(text, Skip):
        return text
    specs = [m for m in _PERCENT.finditer(text) if m.group("kind") != "%"]
    right = node.right
    positional: list[ast.expr] = []
    keyed: dict[str, ast.expr] = {}
    if isinstance(right, ast.Tuple):
        positional = list(right.elts)
    elif isinstance(right, ast.Dict):
        for key_node, value_node in zip(right.keys, right.values, strict=True):
            if isinstance(key_node, ast.Constant) and isinstance(key_node.value, str):
                keyed[key_node.value] = value_node
    elif len(specs) == 1:
        positional = [right]
    pieces: list[Piece] = []
    position = 0
    index = 0
    for found in _PERCENT.finditer(text):
        pieces.append(Lit(text[position : found.start()]))
        position = found.end()
        if found.group("kind") == "%":
            pieces.append(Lit("%"))
            continue
        key = found.group("key")
        if key is not None:
            value = keyed.get(key)
            pieces.append(Hole(placeholder_name(value) if value is not None else key))
        elif index < len(positional) and not isinstance(positional[index], ast.Starred):
            pieces.append(Hole(placeholder_name(positional[index])))
        else:
            pieces.append(Hole(f"{placeholder_name(right)}[{index}]"))
        index += 1
    pieces.append(Lit(text[position:]))
    return pieces


def _call(node: ast.Call, lookup: Lookup, depth: int) -> list[Piece] | Skip:
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "format":
        return _format(node, func.value, lookup, depth)
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if isinstance(func, ast.Name) and depth < _MAX_LOOKUPS:
        # `msg = "Output {}.".format` then `raise TypeError(msg(...))` (jax.grad's scalar check
        # of 0.1-0.4): the bound method is the literal's `.format`.
        bound = lookup(func.id)
        if isinstance(bound, ast.Attribute) and bound.attr == "format":
            return _format(node, bound.value, lookup, depth + 1, inline=True)
    if name == "dedent" and len(node.args) == 1:
        # textwrap.dedent only moves leading whitespace, so it commutes with placeholders.
        inner = _pieces(node.args[0], lookup, depth)
        if isinstance(inner, Skip):
            return inner
        return parse_template(textwrap.dedent(render(inner)))
    return Skip("message built by a function call")


def _format(
    node: ast.Call, base: ast.expr, lookup: Lookup, depth: int, inline: bool = False
) -> list[Piece] | Skip:
    """`inline`: an argument that is itself literal-style (a literal, an f-string, a formatted
    literal) is worded into the template (`msg(f"had shape: {s}")` -> "Output had shape: {s}.")."""
    held = _pieces(base, lookup, depth)
    if isinstance(held, Skip):
        return held
    # A value worded in before `.format` (`msg += f" (Tip: jnp.{name} ...)"`) is opaque text:
    # only the literal pieces hold format fields.
    parsed: list[tuple[str, str | None] | Hole] = []
    try:
        for piece in held:
            if isinstance(piece, Hole):
                parsed.append(piece)
            else:
                parsed += [(lit, fld) for lit, fld, _, _ in string.Formatter().parse(piece.text)]
    except ValueError:
        return Skip("malformed str.format string")
    keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}
    pieces: list[Piece] = []
    auto = 0
    for item in parsed:
        if isinstance(item, Hole):
            pieces.append(item)
            continue
        literal, field = item
        pieces.append(Lit(literal))
        if field is None:
            continue
        base_name = re.match(r"[^.\[]*", field)
        head = base_name.group(0) if base_name else field
        rest = field[len(head) :]
        if head == "":
            head, auto = str(auto), auto + 1
        value: ast.expr | None
        if head.isdigit():
            index = int(head)
            usable = index < len(node.args) and not any(
                isinstance(a, ast.Starred) for a in node.args[: index + 1]
            )
            value = node.args[index] if usable else None
        else:
            value = keywords.get(head)
        if inline and not rest and value is not None:
            worded = _pieces(value, lookup, depth)
            if not isinstance(worded, Skip):
                pieces.extend(worded)
                continue
        name = placeholder_name(value) if value is not None else head
        pieces.append(Hole((name + rest).replace("{", "(").replace("}", ")")))
    return pieces


def parse_template(template: str) -> list[Piece]:
    """A template back into pieces (the inverse of `render`)."""
    pieces: list[Piece] = []
    position = 0
    for found in _TEMPLATE_TOKEN.finditer(template):
        pieces.append(Lit(template[position : found.start()]))
        position = found.end()
        token = found.group(0)
        if token in ("{{", "}}"):
            pieces.append(Lit(token[0]))
        else:
            pieces.append(Hole(found.group(1)))
    pieces.append(Lit(template[position:]))
    return _merge(pieces)
