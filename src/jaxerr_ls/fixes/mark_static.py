"""`mark-static`: add the argument to `static_argnames` (or `static_argnums`) of its `jax.jit`.

Safe, by our judgement: a static argument is hashed and baked into the compiled code instead of
traced, so every call computes what the Python code says; what changes is *when* JAX compiles (once
per distinct value). The diagnostic shows the function cannot trace with this argument abstract, so
no call that worked before starts failing. Not offered when the file's own calls pass an array (or
a list, dict, set) for the argument: static, it would fail to hash (the tracing model,
`fixes/usage.py`, reads the calls). The first error is not the last: every other parameter the
body needs concrete (a shape, axis, count, branch) that the file's calls pass a hashable literal,
and every one they pass a string, is marked in the same edit.

Targets, for the function on (or around) the diagnostic line:
`@jax.jit` -> `@partial(jax.jit, static_argnames=("n",))`; `@partial(jax.jit, ...)`,
`@jax.jit(...)`, `g = jax.jit(f, ...)` and `jax.jit(f, ...)(x)` get the keyword added or extended.
The argument comes from the message's fields, else from the one parameter named on the line.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Protocol

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import (
    JIT_NAMES,
    File,
    field,
    first_arg_name,
    funcdef_named,
    insert,
    is_call_to,
    open_file,
    proposal,
    replace_node,
)
from jaxerr_ls.fixes.imports import Spelled, spell_or_import
from jaxerr_ls.fixes.syntax import (
    Call,
    Node,
    as_call,
    decorators_of,
    funcdef_name,
    funcdef_params,
    funcdefs_at,
)
from jaxerr_ls.fixes.usage import (
    Model,
    TracedFunction,
    function_defined_at,
    model_of,
    must_be_static,
    passed_only_hashable,
    passed_unhashable,
)
from jaxerr_ls.fixes.wrap_jit import decorator_target

_NAME = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class _Target:
    """Where the jit is: a bare decorator to rewrite, or a call whose keywords we edit."""

    funcdef: Node | None
    decorator: Node | None = None  # a bare `@jax.jit`
    call: Call | None = None  # `jax.jit(f, ...)`, `partial(jax.jit, ...)`, `jax.jit(...)`


class _MarkStatic:
    id = "mark-static"
    safe = True
    # It reads the file through names only (the function at the line, the jits and calls that
    # name it, the imports, the tracing model): checked on its component's view (fixes/__init__).
    local = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        model = model_of(ctx.source)
        for target in _targets(file):
            params = funcdef_params(target.funcdef) if target.funcdef is not None else None
            already = _static_names(target.call) if target.call is not None else frozenset()
            traced = _traced_function(model, target.funcdef)
            name, num = _argument(file, ctx, target.funcdef, params, already, model, traced)
            if name is None and num is None:
                continue
            names = [name] if name is not None else []
            if model is not None and traced is not None and name is not None:
                if passed_unhashable(model, traced, name):
                    return None  # the file passes it an array: static would fail to hash it
                # The first error is not the last: every other parameter the body needs
                # concrete, and the file passes a hashable value, is marked in the same edit.
                names += [p for p in must_be_static(model, traced) if p not in (name, *already)]
            proposed = _propose(self, file, target, names, num)
            if proposed is not None and model is not None and traced is not None and names:
                fits = all(passed_only_hashable(model, traced, n) for n in names)
                proposed = dataclasses.replace(proposed, fits_file=fits)
            return proposed
        return None


def _traced_function(model: Model | None, funcdef: Node | None) -> TracedFunction | None:
    if model is None or funcdef is None:
        return None
    return function_defined_at(model, funcdef.start[0] - 1, funcdef_name(funcdef))


def _static_names(call: Call) -> frozenset[str]:
    value = _keyword(call, "static_argnames")
    if value is None:
        return frozenset()
    return frozenset(
        leaf.value.strip("'\"") for leaf in value.walk() if leaf.is_leaf and leaf.type == "string"
    )


def _argument(
    file: File,
    ctx: FixContext,
    funcdef: Node | None,
    params: list[str] | None,
    already: frozenset[str],
    model: Model | None = None,
    traced: TracedFunction | None = None,
) -> tuple[str | None, int | None]:
    name = field(ctx, "name", "arg", "argname", "arg_name", "argument")
    num_text = field(ctx, "argnum", "argnums", "index", "position")
    num = int(num_text) if num_text is not None and num_text.isdigit() else None
    if name is not None and not _NAME.fullmatch(name):
        name = None
    if params is not None:
        if name is None and num is not None and num < len(params):
            return params[num], None
        if name is None and num is None:
            candidates = [p for p in params if p not in already]
            if model is not None and traced is not None:
                candidates = [p for p in candidates if not passed_unhashable(model, traced, p)]
            name = _name_on_line(file, funcdef, candidates)
        if name is not None and name not in params:
            return None, None
        return (name, None) if name is not None else (None, None)
    return name, num


def _name_on_line(file: File, funcdef: Node | None, params: list[str]) -> str | None:
    """The single parameter of the function named on the line (or under the cursor)."""
    if funcdef is None or file.line == funcdef.start[0]:
        return None
    used = []
    for leaf in funcdef.walk():
        on_line = leaf.type == "name" and leaf.start[0] == file.line and leaf.value in params
        if on_line and (file.column is None or leaf.start[1] <= file.column <= leaf.end[1]):
            used.append(leaf.value)
    distinct = list(dict.fromkeys(used))
    return distinct[0] if len(distinct) == 1 else None


class _Rating(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def safe(self) -> bool: ...


@dataclass(frozen=True)
class Rating:
    """The id and safety another fix proposes `mark-static`'s edit under."""

    id: str
    safe: bool


def propose_at(
    fix: _Rating, file: File, names: list[str], num: int | None, title: str | None = None
) -> ProposedFix | None:
    """Mark `names` (or argument `num`) static on the first jit of the function at the line."""
    for target in _targets(file):
        proposed = _propose(fix, file, target, names, num, title)
        if proposed is not None:
            return proposed
    return None


def _targets(file: File) -> list[_Target]:
    found: list[_Target] = []
    for funcdef in funcdefs_at(file.module, file.line):
        for decorator in decorators_of(funcdef):
            if decorator_target(file, decorator) not in JIT_NAMES:
                continue
            call = as_call(decorator.children[1])
            found.append(_Target(funcdef, None if call else decorator, call))
        name = funcdef.children[1].value
        for call in file.index.calls:  # g = jax.jit(f, ...) anywhere in the file
            if is_call_to(file, call, JIT_NAMES) and _wrapped_name(file, call) == name:
                found.append(_Target(funcdef, call=call))
    for call in file.calls:  # jax.jit(f, ...)(x) on the line
        if is_call_to(file, call, JIT_NAMES) and call.args():
            jitted = _wrapped_name(file, call)
            defined = funcdef_named(file, jitted) if jitted is not None else None
            found.append(_Target(defined, call=call))
    return found


def _wrapped_name(file: File, call: Call) -> str | None:
    """The function a jit wraps, through inner transforms: `f` in `jax.jit(f)` and in
    `jax.jit(jax.grad(f))` — the static argument belongs on the outer jit, which traces the
    composition (grad passes it through, its signature is `f`'s)."""
    name = first_arg_name(call)
    if name is not None:
        return name
    args = call.args()
    inner = as_call(args[0].value) if args and args[0].keyword is None else None
    qualified = file.qualify(inner.callee_dotted()) if inner is not None else None
    if inner is None or qualified is None or not qualified.startswith("jax."):
        return None
    return _wrapped_name(file, inner)


def _keyword(call: Call, name: str) -> Node | None:
    for arg in call.args():
        if arg.keyword == name:
            return arg.value
    return None


def _propose(
    fix: _Rating,
    file: File,
    target: _Target,
    names: list[str],
    num: int | None,
    title: str | None = None,
) -> ProposedFix | None:
    if names:
        key, items = "static_argnames", [f'"{name}"' for name in names]
        quoted = ", ".join(f"'{name}'" for name in names)
        title = title or f"Mark {quoted} as static (static_argnames)"
    else:
        key, items = "static_argnums", [str(num)]
        title = title or f"Mark argument {num} as static (static_argnums)"
    item = ", ".join(items)
    tuple_text = f"({item},)" if len(items) == 1 else f"({item})"
    if target.decorator is not None:
        partial = spell_or_import(file.imports, "functools.partial", ("functools", "functools"))
        if partial is None:
            return None
        if partial.import_line is not None:
            partial = Spelled("partial", "from functools import partial")
            if not file.imports.free("partial"):
                return None
        jit = target.decorator.children[1].code()
        text = f"{partial.text}({jit}, {key}={tuple_text})"
        rewrite = replace_node(target.decorator.children[1], text)
        return proposal(fix.id, title, fix.safe, [rewrite], file.imports, partial)
    if target.call is None:
        return None
    existing = _keyword(target.call, key)
    edit: TextEdit | None
    if existing is None:
        edit = add_keyword(target.call, f"{key}={tuple_text}")
    else:
        edit = _extend(existing, items)
    if edit is None:
        return None
    return proposal(fix.id, title, fix.safe, [edit], file.imports)


def add_keyword(call: Call, text: str) -> TextEdit:
    """Append `text` as the call's last argument, keeping a trailing-comma style."""
    args = call.args()
    close = call.trailer.children[-1]
    if not args:
        return insert(close.start, text)
    last = call.trailer.children[1]
    if last.type == "arglist" and last.children[-1].is_op(","):
        return insert(last.children[-1].end, f" {text},")
    return insert(args[-1].node.end, f", {text}")


def _extend(value: Node, items: list[str]) -> TextEdit | None:
    """Add `items` to a literal tuple/list/value; None when they are there already or it is not
    a literal."""
    if value.type in ("string", "number"):
        present = value.code().strip("'\"")
        new = [i for i in items if i.strip('"') != present]
        if not new:
            return None
        return replace_node(value, f"({', '.join([value.code(), *new])})")
    if value.type != "atom" or value.children[0].value not in ("(", "["):
        return None
    open_, *inner, close = value.children
    if not inner:
        return insert(close.start, f"{', '.join(items)},")
    body = inner[0]
    elements = (
        [c for c in body.children if not c.is_op(",")]
        if body.type in ("testlist_comp", "exprlist")
        else [body]
    )
    if any(e.type not in ("string", "number") for e in elements):
        return None
    present_all = {e.code().strip("'\"") for e in elements}
    new = [i for i in items if i.strip('"') not in present_all]
    if not new:
        return None
    text = ", ".join(new)
    if body.type == "testlist_comp" and body.children[-1].is_op(","):
        return replace_node(body.children[-1], f", {text}")
    return insert(body.end, f", {text}")


FIX = _MarkStatic()
