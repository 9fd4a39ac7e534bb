"""Helpers shared by the fixes: the parsed file, edits from parso positions, name resolution."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jaxerr_ls.edits.text import combine
from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.imports import Imports, Spelled, scan_imports, spell_jnp
from jaxerr_ls.fixes.syntax import (
    Call,
    Index,
    Node,
    Pos,
    as_call,
    calls_on_line,
    contains,
    index,
    parse,
)

JIT_NAMES = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})
PARTIAL_NAMES = frozenset({"functools.partial"})


@dataclass(frozen=True)
class File:
    source: str
    module: Node
    imports: Imports
    index: Index
    line: int  # 1-based, parso's convention
    column: int | None

    @property
    def calls(self) -> list[Call]:
        return calls_on_line(self.module, self.line)

    def qualify(self, dotted: str | None) -> str | None:
        return None if dotted is None else self.imports.qualify(dotted)

    def cursor_in(self, start: Pos, end: Pos) -> bool:
        """True without a cursor column; else whether the cursor lies within [start, end]."""
        if self.column is None:
            return True
        return start <= (self.line, self.column) <= end


@dataclass(frozen=True)
class JnpFile(File):
    jnp: Spelled  # how the file names `jax.numpy` (with the import to add when it has no name)


def open_file(ctx: FixContext) -> File:
    module = parse(ctx.source)
    return File(
        ctx.source, module, scan_imports(ctx.source), index(ctx.source), ctx.line + 1, ctx.column
    )


def jnp_file(ctx: FixContext) -> JnpFile | None:
    """The file, for fixes that write `jnp.…`; None when no name for `jax.numpy` is free."""
    file = open_file(ctx)
    jnp = spell_jnp(file.imports)
    if jnp is None:
        return None
    return JnpFile(**vars(file), jnp=jnp)


def field(ctx: FixContext, *keys: str) -> str | None:
    for key in keys:
        value = ctx.fields.get(key)
        if value:
            return value.strip().strip("'\"`")
    return None


def replace(start: Pos, end: Pos, text: str) -> TextEdit:
    return TextEdit(start[0] - 1, start[1], end[0] - 1, end[1], text)


def insert(pos: Pos, text: str) -> TextEdit:
    return replace(pos, pos, text)


def replace_node(node: Node, text: str) -> TextEdit:
    return replace(node.start, node.end, text)


def proposal(
    fix_id: str,
    title: str,
    safe: bool,
    edits: Sequence[TextEdit],
    imports: Imports,
    *needed: Spelled,
) -> ProposedFix | None:
    lines: list[str] = []
    for spelled in needed:
        if spelled.import_line and spelled.import_line not in lines:
            lines.append(spelled.import_line)
    extra = [imports.add_line(line) for line in lines]
    if not edits:
        return None
    return ProposedFix(fix_id, title, safe, combine([*extra, *edits]))


def is_call_to(file: File, call: Call, names: frozenset[str]) -> bool:
    return file.qualify(call.callee_dotted()) in names


def scope_of(node: Node) -> Node:
    """The function (or module) whose local names `node` sees first."""
    for anc in node.ancestors():
        if anc.type in ("funcdef", "file_input", "lambdef"):
            return anc
    return node


def assigned_value(file: File, name: Node) -> Node | None:
    """The value of the last `name = value` before `name`, in its scope or the module's."""
    scopes = [scope_of(name)]
    if scopes[0].type != "file_input":
        scopes.append(file.module)
    for scope in scopes:
        best: Node | None = None
        for node in file.index.assignments:
            kids = node.children
            if node.start >= name.start or not kids[0].is_name(name.value):
                continue
            if scope_of(node) == scope:
                best = kids[2]
        if best is not None:
            return best
    return None


def funcdef_named(file: File, name: str) -> Node | None:
    for node in file.index.funcdefs:
        if node.children[1].is_name(name):
            return node
    return None


def callee_call(file: File, call: Call) -> Call | None:
    """The call that made the callee: `jax.grad(f)` for `g(x)` after `g = jax.grad(f)`, or in
    `jax.grad(f)(x)`."""
    inner = call.inner_call()
    if inner is not None:
        return inner
    parts = call.callee_parts()
    if len(parts) == 1 and parts[0].is_name():
        value = assigned_value(file, parts[0])
        if value is not None:
            return as_call(value)
    return None


def first_arg_name(call: Call) -> str | None:
    args = call.args()
    if args and args[0].keyword is None and not args[0].star and args[0].value.is_name():
        return args[0].value.value
    return None


def in_line(file: File, node: Node) -> bool:
    return contains(node, file.line)
