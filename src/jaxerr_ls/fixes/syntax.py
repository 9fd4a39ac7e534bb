"""The only importer of parso: a small typed view of its tree, plus call and argument helpers.

parso keeps comments and formatting in leaf prefixes, so edits computed from its positions touch
only the code they change. Positions here are parso's: 1-based lines, 0-based code-point columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import parso as _parso_module

Pos = tuple[int, int]
_parso: Any = _parso_module  # untyped library: confined to this module


class Node:
    """A parso node or leaf. Equality is identity of the underlying parso object."""

    __slots__ = ("_raw",)

    def __init__(self, raw: Any) -> None:
        self._raw = raw

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other._raw is self._raw

    def __hash__(self) -> int:
        return id(self._raw)

    def __repr__(self) -> str:
        return f"Node({self.type}, {self.start}, {self.code()!r})"

    @property
    def type(self) -> str:
        return str(self._raw.type)

    @property
    def is_leaf(self) -> bool:
        return not hasattr(self._raw, "children")

    @property
    def children(self) -> tuple[Node, ...]:
        return tuple(Node(c) for c in getattr(self._raw, "children", ()))

    @property
    def parent(self) -> Node | None:
        raw = self._raw.parent
        return None if raw is None else Node(raw)

    @property
    def start(self) -> Pos:
        line, col = self._raw.start_pos
        return int(line), int(col)

    @property
    def end(self) -> Pos:
        line, col = self._raw.end_pos
        return int(line), int(col)

    @property
    def value(self) -> str:
        """A leaf's text ("" for inner nodes)."""
        return str(getattr(self._raw, "value", ""))

    @property
    def prefix(self) -> str:
        """Whitespace and comments before the node."""
        leaf = self._raw if self.is_leaf else self._raw.get_first_leaf()
        return str(leaf.prefix)

    def code(self) -> str:
        """The node's text without its leading prefix."""
        return str(self._raw.get_code(include_prefix=False))

    def full_code(self) -> str:
        """The node's text including its prefix (comments, whitespace)."""
        return str(self._raw.get_code(include_prefix=True))

    def walk(self) -> Iterator[Node]:
        """Pre-order over the node and everything under it."""
        stack = [self._raw]
        while stack:
            raw = stack.pop()
            yield Node(raw)
            stack.extend(reversed(getattr(raw, "children", ())))

    def ancestors(self) -> Iterator[Node]:
        raw = self._raw.parent
        while raw is not None:
            yield Node(raw)
            raw = raw.parent

    def leaf_at(self, pos: Pos) -> Node | None:
        try:
            raw = self._raw.get_leaf_for_position(pos, include_prefixes=True)
        except ValueError:
            return None
        return None if raw is None else Node(raw)

    def is_name(self, value: str | None = None) -> bool:
        return self.type == "name" and (value is None or self.value == value)

    def is_op(self, value: str) -> bool:
        return self.type in ("operator", "keyword") and self.value == value


@lru_cache(maxsize=16)
def _parse_raw(source: str) -> Any:
    return _parso.parse(source, error_recovery=True)


def parse(source: str) -> Node:
    return Node(_parse_raw(source))


@lru_cache(maxsize=16)
def error_count(source: str) -> int:
    grammar = _parso.load_grammar()
    return len(list(grammar.iter_errors(grammar.parse(source, error_recovery=True))))


def contains(node: Node, line: int) -> bool:
    """Whether the node spans 1-based `line`."""
    return node.start[0] <= line <= node.end[0] - (1 if node.end[1] == 0 else 0)


# --- calls -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Arg:
    node: Node  # the whole argument, e.g. `k=1`
    value: Node  # its value expression
    keyword: str | None = None
    star: str = ""  # "*" or "**" for unpacking


@dataclass(frozen=True)
class Call:
    """`expr.children[index]` is the `(...)` trailer of a call inside atom_expr `expr`."""

    expr: Node
    index: int

    @property
    def trailer(self) -> Node:
        return self.expr.children[self.index]

    @property
    def start(self) -> Pos:
        return self.expr.start

    @property
    def end(self) -> Pos:
        return self.trailer.end

    def callee_parts(self) -> tuple[Node, ...]:
        return self.expr.children[: self.index]

    def callee_dotted(self) -> str | None:
        """`jax.random.normal` for a plain dotted callee, else None."""
        parts = self.callee_parts()
        if not parts or not parts[0].is_name():
            return None
        names = [parts[0].value]
        for trailer in parts[1:]:
            kids = trailer.children
            if trailer.type != "trailer" or not kids[0].is_op(".") or not kids[1].is_name():
                return None
            names.append(kids[1].value)
        return ".".join(names)

    def inner_call(self) -> Call | None:
        """For `jax.grad(f)(x)`: the call `jax.grad(f)`."""
        if self.index >= 2 and is_call_trailer(self.expr.children[self.index - 1]):
            return Call(self.expr, self.index - 1)
        return None

    def name_leaf(self) -> Node | None:
        """The last name of the callee (`normal` in `jax.random.normal(...)`)."""
        parts = self.callee_parts()
        if self.callee_dotted() is None:
            return None
        return parts[-1].children[1] if len(parts) > 1 else parts[0]

    def args(self) -> tuple[Arg, ...]:
        kids = self.trailer.children
        if len(kids) != 3:
            return ()
        inner = kids[1]
        items = (
            [c for c in inner.children if not c.is_op(",")] if inner.type == "arglist" else [inner]
        )
        return tuple(_arg(item) for item in items)

    def text_range(self) -> tuple[Pos, Pos]:
        return self.start, self.end


def _arg(node: Node) -> Arg:
    if node.type == "argument":
        kids = node.children
        if kids[0].is_op("*") or kids[0].is_op("**"):
            return Arg(node, kids[1], None, kids[0].value)
        if len(kids) == 3 and kids[1].is_op("=") and kids[0].is_name():
            return Arg(node, kids[2], kids[0].value)
    return Arg(node, node)


def is_call_trailer(node: Node) -> bool:
    return node.type == "trailer" and node.children[0].is_op("(")


def calls_in(node: Node) -> Iterator[Call]:
    for sub in node.walk():
        if sub.type == "atom_expr":
            for i, child in enumerate(sub.children):
                if i > 0 and is_call_trailer(child):
                    yield Call(sub, i)


def as_call(node: Node) -> Call | None:
    """The call when `node` is exactly a call expression `f(...)`."""
    if node.type == "atom_expr" and is_call_trailer(node.children[-1]):
        return Call(node, len(node.children) - 1)
    return None


def calls_on_line(module: Node, line: int) -> list[Call]:
    """Calls whose text spans 1-based `line`, outermost first."""
    found = []
    for call in calls_in(module):
        start, end = call.text_range()
        if start[0] <= line <= end[0]:
            found.append(call)
    return found


def enclosing(node: Node, *types: str) -> Node | None:
    for anc in node.ancestors():
        if anc.type in types:
            return anc
    return None


def funcdef_at(module: Node, line: int) -> Node | None:
    """The innermost `def` whose span includes 1-based `line`."""
    best: Node | None = None
    for node in module.walk():
        if node.type == "funcdef" and contains(node, line):
            best = node
    return best


def funcdefs_at(module: Node, line: int) -> list[Node]:
    """Every `def` spanning 1-based `line`, innermost first."""
    found = [n for n in module.walk() if n.type == "funcdef" and contains(n, line)]
    return sorted(found, key=lambda n: n.start, reverse=True)


def decorators_of(funcdef: Node) -> tuple[Node, ...]:
    parent = funcdef.parent
    if parent is None:
        return ()
    if parent.type == "async_funcdef":
        parent = parent.parent
    if parent is None or parent.type != "decorated":
        return ()
    head = parent.children[0]
    if head.type == "decorator":
        return (head,)
    return tuple(c for c in head.children if c.type == "decorator")


def funcdef_name(funcdef: Node) -> str:
    return funcdef.children[1].value


def funcdef_params(funcdef: Node) -> list[str]:
    params = funcdef.children[2]
    names = []
    for sub in params.children:
        if sub.type == "param":
            first = sub.children[0]
            if first.type == "tfpdef":
                first = first.children[0]
            if first.is_name():
                names.append(first.value)
    return names


def indent_of(source: str, node: Node) -> str:
    """The indentation of the line where `node` starts (spaces/tabs before it)."""
    lines = source.splitlines()
    line = lines[node.start[0] - 1] if node.start[0] - 1 < len(lines) else ""
    return line[: len(line) - len(line.lstrip())]


def scope_nodes(funcdef: Node) -> Iterator[Node]:
    """Nodes of a function's body, not descending into nested defs, lambdas or classes."""
    stack = list(reversed(funcdef.children))
    while stack:
        node = stack.pop()
        yield node
        if node.type not in ("funcdef", "lambdef", "classdef"):
            stack.extend(reversed(node.children))
