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


@dataclass(frozen=True)
class Index:
    """Everything the fixes look up file-wide, collected in one walk per text."""

    calls: tuple[Call, ...]
    funcdefs: tuple[Node, ...]
    assignments: tuple[Node, ...]  # `name = value` expr_stmts
    imports: tuple[Node, ...]


@lru_cache(maxsize=16)
def index(source: str) -> Index:
    calls: list[Call] = []
    funcdefs: list[Node] = []
    assignments: list[Node] = []
    imports: list[Node] = []
    for node in parse(source).walk():
        kind = node.type
        if kind == "atom_expr":
            calls.extend(
                Call(node, i) for i, c in enumerate(node.children) if i > 0 and is_call_trailer(c)
            )
        elif kind == "funcdef":
            funcdefs.append(node)
        elif kind == "expr_stmt":
            kids = node.children
            if len(kids) == 3 and kids[1].is_op("=") and kids[0].is_name():
                assignments.append(node)
        elif kind in ("import_name", "import_from"):
            imports.append(node)
    return Index(tuple(calls), tuple(funcdefs), tuple(assignments), tuple(imports))


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


_COMPOUND = frozenset(
    {"if_stmt", "while_stmt", "for_stmt", "with_stmt", "try_stmt", "funcdef", "classdef"}
    | {"decorator", "async_stmt", "match_stmt"}
)


def leaf_on_line(module: Node, line: int) -> Node | None:
    """The first code leaf of 1-based `line` (None for blank or comment-only lines)."""
    leaf = module.leaf_at((line, 0))
    while leaf is not None and leaf.type == "newline" and leaf.start[0] < line:
        leaf = _next_leaf(leaf)
    if leaf is None or leaf.start[0] != line or leaf.type in ("newline", "endmarker"):
        return None
    return leaf


def _next_leaf(leaf: Node) -> Node | None:
    raw = leaf._raw.get_next_leaf()
    return None if raw is None else Node(raw)


def statement_at(module: Node, line: int) -> Node | None:
    """The simple statement, or the compound statement whose header, holds 1-based `line`."""
    leaf = leaf_on_line(module, line)
    if leaf is None:
        return None
    for node in (leaf, *leaf.ancestors()):
        if node.type == "simple_stmt" or node.type in _COMPOUND:
            return node
    return None


def header_nodes(stmt: Node) -> tuple[Node, ...]:
    """A statement without the blocks it owns: what can be "on" its lines."""
    if stmt.type == "simple_stmt":
        return (stmt,)
    return tuple(c for c in stmt.children if c.type != "suite")


def calls_on_line(module: Node, line: int) -> list[Call]:
    """Calls in the statement at `line` whose text spans that line, outermost first."""
    stmt = statement_at(module, line)
    if stmt is None:
        return []
    found = []
    for part in header_nodes(stmt):
        for call in calls_in(part):
            start, end = call.text_range()
            if start[0] <= line <= end[0]:
                found.append(call)
    return found


def enclosing(node: Node, *types: str) -> Node | None:
    for anc in node.ancestors():
        if anc.type in types:
            return anc
    return None


def funcdefs_at(module: Node, line: int) -> list[Node]:
    """Every `def` whose body or header holds 1-based `line`, innermost first."""
    leaf = leaf_on_line(module, line)
    if leaf is None:
        return []
    return [n for n in leaf.ancestors() if n.type == "funcdef"]


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
