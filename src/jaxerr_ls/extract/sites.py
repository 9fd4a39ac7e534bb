"""Every `raise` in a module: its exception class, message template and enclosing function."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from jaxerr_ls.extract.messages import Skip, template_of

MODULE_SCOPE = "<module>"


@dataclass(frozen=True)
class RaiseSite:
    file: str
    line: int
    function: str  # qualified: "Class.method", "outer.<locals>.inner", "<module>"
    exception: str  # last dotted component of the class as written
    template: str


@dataclass(frozen=True)
class Skipped:
    file: str
    line: int
    reason: str


@dataclass(frozen=True)
class _Scope:
    """A function (or the module): the names bound directly in it, for `msg = ...` lookups."""

    qualname: str
    is_class: bool = False
    bindings: dict[str, list[ast.AST]] = field(default_factory=dict)


def walk_raises(relative: str, tree: ast.Module) -> tuple[list[RaiseSite], list[Skipped]]:
    """Raise sites with a literal-style message, and the raises that have none (with why)."""
    walker = _Walker(relative)
    walker.run(tree)
    return walker.sites, walker.skipped


def exception_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def scope_bindings(body: list[ast.stmt], args: ast.arguments | None) -> dict[str, list[ast.AST]]:
    """Name -> the nodes binding it directly in this scope (nested scopes excluded)."""
    found: dict[str, list[ast.AST]] = {}
    if args is not None:
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None:
                found.setdefault(arg.arg, []).append(arg)
    for node in _own_nodes(body):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.setdefault(node.id, []).append(node)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                # Recorded as the assignment itself so a lookup can read its value.
                found.setdefault(target.id, []).append(node)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            found.setdefault(node.target.id, []).append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.setdefault(node.name, []).append(node)
    return found


def _own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Nodes of a scope's body, not descending into nested functions, classes or lambdas."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _single_assignment(nodes: list[ast.AST]) -> ast.Assign | None:
    """The value's assignment when the name is bound exactly once, by a plain `name = value`.

    `_own_nodes` yields both the Assign and its target Name; the pair is one binding.
    """
    assigns = [n for n in nodes if isinstance(n, ast.Assign)]
    others = [n for n in nodes if not isinstance(n, (ast.Assign, ast.Name))]
    names = [n for n in nodes if isinstance(n, ast.Name)]
    if len(assigns) == 1 and not others and len(names) == 1:
        return assigns[0]
    return None


class _Walker:
    def __init__(self, relative: str) -> None:
        self.relative = relative
        self.sites: list[RaiseSite] = []
        self.skipped: list[Skipped] = []
        self.scopes: list[_Scope] = []

    def run(self, tree: ast.Module) -> None:
        self.scopes = [_Scope(MODULE_SCOPE, bindings=scope_bindings(tree.body, None))]
        self._body(tree.body)

    def _qualname(self, name: str) -> str:
        parent = self.scopes[-1]
        if parent.qualname == MODULE_SCOPE:
            return name
        return f"{parent.qualname}.{name}" if parent.is_class else f"{parent.qualname}.<locals>.{name}"

    def _body(self, body: list[ast.stmt]) -> None:
        for node in _own_nodes(body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scope = _Scope(self._qualname(node.name), bindings=scope_bindings(node.body, node.args))
                self.scopes.append(scope)
                self._body(node.body)
                self.scopes.pop()
            elif isinstance(node, ast.ClassDef):
                self.scopes.append(_Scope(self._qualname(node.name), is_class=True))
                self._body(node.body)
                self.scopes.pop()
            elif isinstance(node, ast.Raise):
                self._raise(node)

    def _lookup(self, line: int) -> object:
        def lookup(name: str) -> ast.expr | None:
            for depth, scope in enumerate(reversed(self.scopes)):
                if scope.is_class:
                    continue
                nodes = scope.bindings.get(name)
                if not nodes:
                    continue
                assign = _single_assignment(nodes)
                innermost = depth == 0
                if assign is None or (innermost and assign.lineno >= line):
                    return None
                return assign.value
            return None

        return lookup

    def _raise(self, node: ast.Raise) -> None:
        function = self.scopes[-1].qualname
        exc = node.exc
        if exc is None:
            self._skip(node, "bare raise (re-raises the current exception)")
            return
        if not isinstance(exc, ast.Call):
            self._skip(node, "raises an exception object or class without a message")
            return
        name = exception_name(exc.func)
        candidates = [*exc.args, *(kw.value for kw in exc.keywords)]
        if not candidates:
            self._skip(node, "exception constructed without arguments")
            return
        lookup = self._lookup(node.lineno)
        first_reason: Skip | None = None
        for candidate in candidates:
            result = template_of(candidate, lookup)  # type: ignore[arg-type]
            if isinstance(result, Skip):
                first_reason = first_reason or result
                continue
            if name is None:
                self._skip(node, "exception class computed at run time")
                return
            self.sites.append(RaiseSite(self.relative, node.lineno, function, name, result))
            return
        assert first_reason is not None
        self._skip(node, first_reason.reason)

    def _skip(self, node: ast.Raise, reason: str) -> None:
        self.skipped.append(Skipped(self.relative, node.lineno, reason))
