"""Exception classes that word their own message, and the raises that use them.

Flax raises `errors.ScopeParamShapeError(name, path, value_shape, init_shape)`: the message is
written in the class's `__init__` (`super().__init__(f'Initializer expected to generate shape
{init_shape} ...')`), and the base class `FlaxError` appends a link to the class's documentation
(`message = f'{message} ({error_page}#{module_name}.{class_name})'`). Read statically:

- a class's *message*: the template of what its `__init__` passes to the base's `__init__`;
- a class's *wrapper*: an `__init__` that rewrites its message parameter before passing it on
  (FlaxError's link), with the class's name and module as `__name__`/`__module__` holes and local
  string constants filled in;

and a raise of such a class gets the class's message (or its literal message) inside the nearest
wrapper, as the user sees it printed.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from jaxerr_ls.extract.messages import Hole, Lit, Piece, Skip, parse_template, render, template_of
from jaxerr_ls.extract.sites import RaiseSite, Skipped

Chain = tuple[str, ...]
_NAME = "__name__"
_MODULE = "__module__"


@dataclass(frozen=True)
class ClassFacts:
    name: str
    bases: tuple[Chain, ...]
    message: str | None  # the template its `__init__` passes on; None when not literal-style
    wrapper: tuple[str, str] | None  # (message parameter, template holding `{parameter}`)


def chain_of(node: ast.expr) -> Chain | None:
    """`lax.reshape` -> ("lax", "reshape"); None when it is not a dotted name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return (node.id, *reversed(parts))


def class_facts(tree: ast.Module) -> dict[str, ClassFacts]:
    """Top-level classes with an `__init__` that passes a message on, by name."""
    found: dict[str, ClassFacts] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = tuple(c for c in (chain_of(b) for b in node.bases) if c is not None)
        init = next(
            (n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
            None,
        )
        message, wrapper = _init_message(init) if init is not None else (None, None)
        found[node.name] = ClassFacts(node.name, bases, message, wrapper)
    return found


def _assignments(init: ast.FunctionDef) -> dict[str, list[ast.expr]]:
    out: dict[str, list[ast.expr]] = {}
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                out.setdefault(target.id, []).append(node.value)
    return out


def _super_argument(init: ast.FunctionDef) -> ast.expr | None:
    """The message `__init__` passes on: `super().__init__(msg)` or `Base.__init__(self, msg)`."""
    for node in ast.walk(init):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__init__"
        ):
            continue
        args = list(node.args)
        owner = node.func.value
        if isinstance(owner, ast.Name) and args and isinstance(args[0], ast.Name):
            args = args[1:]  # Base.__init__(self, msg)
        if args and not isinstance(args[0], ast.Starred):
            return args[0]
    return None


def _init_message(init: ast.FunctionDef) -> tuple[str | None, tuple[str, str] | None]:
    assigned = _assignments(init)
    params = {a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)}

    def lookup(name: str) -> ast.expr | None:
        values = assigned.get(name, [])
        return values[0] if len(values) == 1 and name not in params else None

    argument = _super_argument(init)
    if argument is None:
        return None, None
    if isinstance(argument, ast.Name) and argument.id in params:
        # `message = f'{message} (...)'; super().__init__(message)`: a wrapper of the parameter.
        for value in assigned.get(argument.id, []):
            wrapped = template_of(value, lookup)
            if isinstance(wrapped, str) and "{" + argument.id + "}" in wrapped:
                return None, (argument.id, _fill(wrapped, assigned, argument.id))
        return None, None
    template = template_of(argument, lookup)
    if isinstance(template, Skip):
        return None, None
    filled = _fill(template, assigned, "")
    # `error_msg = f'{message} ({page}#{module_name}.{class_name})'; super().__init__(error_msg)`:
    # a wrapper too (older FlaxError), told by the class's own name in it.
    holes = {p.name for p in parse_template(filled) if isinstance(p, Hole)}
    named = sorted(holes & params)
    if named and holes & {_NAME, _MODULE}:
        return None, (named[0], filled)
    return filled, None


def _fill(template: str, assigned: Mapping[str, list[ast.expr]], keep: str) -> str:
    """Holes naming a local string constant become its text; `self.__class__.__name__` (or
    `type(self).__name__`) and `__module__` become marker holes the raised class fills."""
    pieces: list[Piece] = []
    for piece in parse_template(template):
        values = assigned.get(piece.name, []) if isinstance(piece, Hole) else []
        if isinstance(piece, Lit) or piece.name == keep or len(values) != 1:
            pieces.append(piece)
            continue
        value = values[0]
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            pieces.append(Lit(value.value))
        elif isinstance(value, ast.Attribute) and value.attr in (_NAME, _MODULE):
            pieces.append(Hole(value.attr))
        else:
            pieces.append(piece)
    return render(pieces)


@dataclass(frozen=True)
class _Resolved:
    module: str
    name: str
    message: str | None
    wrapper: tuple[str, str] | None


def resolve_classes(
    classes: Mapping[str, Mapping[str, ClassFacts]],
    resolve_base: Callable[[str, Chain], tuple[str, str] | None],
) -> dict[str, _Resolved]:
    """Short class name -> its message and nearest wrapper, for names defined once in the
    package; `resolve_base(module, chain)` returns `(module, name)` of a base class or None."""
    memo: dict[tuple[str, str], _Resolved | None] = {}

    def walk(module: str, name: str, depth: int = 0) -> _Resolved | None:
        key = (module, name)
        if key in memo:
            return memo[key]
        memo[key] = None  # cycles
        facts = classes.get(module, {}).get(name)
        if facts is None or depth > 8:
            return None
        message, wrapper = facts.message, facts.wrapper
        for base in facts.bases:
            target = resolve_base(module, base)
            inherited = walk(*target, depth + 1) if target is not None else None
            if inherited is not None:
                message = message or inherited.message
                wrapper = wrapper or inherited.wrapper
        memo[key] = _Resolved(module, name, message, wrapper)
        return memo[key]

    counts: dict[str, int] = {}
    for by_name in classes.values():
        for name in by_name:
            counts[name] = counts.get(name, 0) + 1
    out: dict[str, _Resolved] = {}
    for module, by_name in classes.items():
        for name in by_name:
            found = walk(module, name)
            if counts[name] == 1 and found and (found.message or found.wrapper):
                out[name] = found
    return out


def _wrap(resolved: _Resolved, message: str) -> str:
    if resolved.wrapper is None:
        return message
    parameter, wrapper = resolved.wrapper
    pieces: list[Piece] = []
    for piece in parse_template(wrapper):
        if isinstance(piece, Hole) and piece.name == parameter:
            pieces.extend(parse_template(message))
        elif isinstance(piece, Hole) and piece.name == _NAME:
            pieces.append(Lit(resolved.name))
        elif isinstance(piece, Hole) and piece.name == _MODULE:
            pieces.append(Lit(resolved.module))
        else:
            pieces.append(piece)
    return render(pieces)


def apply_classes(
    sites: Iterable[RaiseSite], skipped: Iterable[Skipped], resolved: Mapping[str, _Resolved]
) -> tuple[list[RaiseSite], list[Skipped]]:
    """Sites with their class's message (wrapped as printed); skipped raises of a class that
    words its own message become sites."""
    out_sites: list[RaiseSite] = []
    for site in sites:
        found = resolved.get(site.exception)
        if found is None:
            out_sites.append(site)
            continue
        template = found.message if found.message is not None else site.template
        out_sites.append(replace(site, template=_wrap(found, template)))
    out_skipped: list[Skipped] = []
    for skip in skipped:
        found = resolved.get(skip.exception)
        if found is None or found.message is None:
            out_skipped.append(skip)
            continue
        out_sites.append(
            RaiseSite(
                skip.file,
                skip.line,
                skip.function,
                skip.exception,
                _wrap(found, found.message),
                skip.condition,
            )
        )
    return out_sites, out_skipped


def is_super_init(node: ast.Call, qualname: str, klass: str | None) -> bool:
    """`super().__init__(msg)` in an exception class's `__init__`: JAX's error classes (the
    tracer conversion errors of 0.2-0.4) build their message there, and `raise Cls(tracer)`
    carries none."""
    func = node.func
    return (
        qualname.endswith(".__init__")
        and str(klass).rsplit(".", 1)[-1].endswith(("Error", "Exception"))
        and isinstance(func, ast.Attribute)
        and func.attr == "__init__"
        and isinstance(func.value, ast.Call)
        and chain_of(func.value.func) == ("super",)
        and bool(node.args or node.keywords)
    )


def as_raise(node: ast.Call, klass: str) -> ast.Raise:
    """The class's message as if raised where it is built (the class named as the exception)."""
    call = ast.Call(ast.Name(klass.rsplit(".", 1)[-1], ast.Load()), node.args, node.keywords)
    return ast.Raise(exc=call, cause=None, lineno=node.lineno, col_offset=node.col_offset)
