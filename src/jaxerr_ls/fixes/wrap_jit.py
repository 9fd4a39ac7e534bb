"""`wrap-jit`: run a shard_map (or a function) under `jax.jit`.

Safe: jit compiles the same computation the eager path would run op by op, so results are the same.

Where the wrap goes, most specific first:
1. a shard_map call on the line (`f = jax.shard_map(...)`) is wrapped:
   `jax.jit(jax.shard_map(...))`;
2. a call `g(x)` on the line whose `g` was made by a shard_map call in this file: that call is
   wrapped (one compiled function, not a new wrapper per call); a `def g` decorated with
   shard_map gets `@jax.jit` on top;
3. the line is inside the body given to a shard_map: that shard_map call is wrapped;
4. otherwise (with a diagnostic, or the cursor on a `def` line) the enclosing `def` gets `@jax.jit`.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import (
    JIT_NAMES,
    PARTIAL_NAMES,
    File,
    assigned_value,
    first_arg_name,
    funcdef_named,
    insert,
    is_call_to,
    open_file,
    proposal,
)
from jaxerr_ls.fixes.imports import spell_or_import
from jaxerr_ls.fixes.syntax import (
    Call,
    Node,
    as_call,
    decorators_of,
    funcdefs_at,
    indent_of,
)

SHARD_MAP_NAMES = frozenset({"jax.shard_map", "jax.experimental.shard_map.shard_map"})
_TITLE = "Wrap with jax.jit"


def is_shard_map(file: File, call: Call) -> bool:
    return is_call_to(file, call, SHARD_MAP_NAMES)


def _under_jit(file: File, call: Call) -> bool:
    """Whether the call is the first argument of a jit call (`jax.jit(<call>)`)."""
    node = call.expr
    parent = node.parent
    if parent is not None and parent.type in ("arglist", "argument"):
        parent = parent.parent
    if parent is None or parent.type != "trailer" or parent.parent is None:
        return False
    outer = parent.parent
    for i, child in enumerate(outer.children):
        if child == parent:
            return is_call_to(file, Call(outer, i), JIT_NAMES)
    return False


def decorator_target(file: File, decorator: Node) -> str | None:
    """The qualified function a decorator applies: `jax.jit`, or `partial(jax.jit, ...)`'s."""
    expr = decorator.children[1]
    if expr.type == "name" or expr.type == "atom_expr" and as_call(expr) is None:
        return file.qualify(expr.code())
    call = as_call(expr)
    if call is None:
        return None
    name = file.qualify(call.callee_dotted())
    if name in PARTIAL_NAMES:
        args = call.args()
        return file.qualify(args[0].value.code()) if args else None
    return name


def _jitted(file: File, funcdef: Node) -> bool:
    return any(decorator_target(file, d) in JIT_NAMES for d in decorators_of(funcdef))


def _shard_mapped(file: File, funcdef: Node) -> bool:
    return any(decorator_target(file, d) in SHARD_MAP_NAMES for d in decorators_of(funcdef))


class _WrapJit:
    id = "wrap-jit"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        jit = spell_or_import(file.imports, "jax.jit", ("jax", "jax"))
        if jit is None:
            return None
        edits = self._edits(file, ctx, jit.text)
        if edits is None:
            return None
        return proposal(self.id, _TITLE, self.safe, edits, file.imports, jit)

    def _edits(self, file: File, ctx: FixContext, jit: str) -> list[TextEdit] | None:
        on_line = [c for c in file.calls if file.cursor_in(c.start, c.end)]
        # 1. a shard_map call on the line
        for call in on_line:
            if is_shard_map(file, call):
                return None if _under_jit(file, call) else _wrap(call, jit)
        # 2. a call whose callee was made by shard_map
        for call in on_line:
            parts = call.callee_parts()
            if len(parts) != 1 or not parts[0].is_name():
                continue
            made = assigned_value(file, parts[0])
            made_call = as_call(made) if made is not None else None
            if made_call is not None and is_shard_map(file, made_call):
                return None if _under_jit(file, made_call) else _wrap(made_call, jit)
            funcdef = funcdef_named(file, parts[0].value)
            if funcdef is not None and _shard_mapped(file, funcdef):
                return None if _jitted(file, funcdef) else _decorate(file, funcdef, jit)
        # 3. inside a shard_map body (the innermost enclosing def that is one)
        for funcdef in funcdefs_at(file.module, file.line):
            name = funcdef.children[1].value
            for call in file.index.calls:
                if is_shard_map(file, call) and first_arg_name(call) == name:
                    return None if _under_jit(file, call) else _wrap(call, jit)
            if _shard_mapped(file, funcdef):
                return None if _jitted(file, funcdef) else _decorate(file, funcdef, jit)
        # 4. decorate the enclosing def
        enclosing = funcdefs_at(file.module, file.line)
        funcdef = enclosing[0] if enclosing else None
        if funcdef is None or _jitted(file, funcdef):
            return None
        if ctx.entry_id is None and funcdef.start[0] != file.line:
            return None  # as a refactoring, only with the cursor on the `def` line
        return _decorate(file, funcdef, jit)


def _wrap(call: Call, jit: str) -> list[TextEdit]:
    return [insert(call.start, f"{jit}("), insert(call.end, ")")]


def _decorate(file: File, funcdef: Node, jit: str) -> list[TextEdit]:
    decorators = decorators_of(funcdef)
    top = decorators[0] if decorators else funcdef
    indent = indent_of(file.source, top)
    return [insert((top.start[0], 0), f"{indent}@{jit}\n")]


FIX = _WrapJit()
