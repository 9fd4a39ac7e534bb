"""One pass over a module's syntax tree: its raise sites and the facts API reach needs.

The pass is iterative (JAX has long `+` chains that would exhaust recursion) and keeps only
small frozen facts, so trees can be dropped as soon as a file is done.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import cast

from jaxerr_ls.extract.classes import ClassFacts, as_raise, chain_of, class_facts, is_super_init
from jaxerr_ls.extract.guards import raise_guards
from jaxerr_ls.extract.logs import log_call, log_site, may_log, module_loggers
from jaxerr_ls.extract.messages import Hole, Lit, Lookup, Skip, parse_template, template_of
from jaxerr_ls.extract.reaching import Binding, Blocks, reaching
from jaxerr_ls.extract.sites import (
    MODULE_SCOPE,
    MessageHelper,
    RaiseSite,
    Skipped,
    exception_name,
    site_of,
)
from jaxerr_ls.extract.source import absolute_module, module_name
from jaxerr_ls.extract.warns import (
    deprecation_table_sites,
    may_warn,
    warn_call,
    warning_site,
)

Chain = tuple[str, ...]  # `lax.reshape` -> ("lax", "reshape")
Import = tuple[str, "str | None"]  # (module, attribute) or (module, None) for `import m as x`


@dataclass(frozen=True)
class FunctionFacts:
    qualname: str
    parent: str | None  # the enclosing function, for nested defs
    klass: str | None  # the enclosing class, for methods
    calls: frozenset[Chain]
    refs: frozenset[Chain]  # names used but not called (callbacks, rules passed along)
    local_defs: frozenset[str]
    local_names: frozenset[str]  # every name bound here (shadows module names)


@dataclass(frozen=True)
class ModuleFacts:
    file: str
    module: str
    is_package: bool
    defs: Mapping[str, str]  # top-level name -> "def" | "class"
    methods: Mapping[str, frozenset[str]]  # class qualname -> its method names
    imports: Mapping[str, Import]
    aliases: Mapping[str, Chain]  # `x = y.z` or `x = partial(y.z, ...)` at module level
    variables: frozenset[str]
    renamed: frozenset[str]  # names bound by `import ... as name` (how JAX re-exports)
    all_names: tuple[str, ...] | None
    registrations: tuple[frozenset[Chain], ...]  # module-level statements naming a `*_p`
    functions: tuple[FunctionFacts, ...]
    sites: tuple[RaiseSite, ...]
    skipped: tuple[Skipped, ...]
    classes: Mapping[str, ClassFacts] = field(default_factory=dict)  # see classes.py
    # `warnings.warn` calls, their category as class (warns.py), and logging calls (logs.py)
    warned: tuple[RaiseSite, ...] = ()
    # Functions that build and return an exception for their callers to raise (jax2tf's
    # `raise _xla_disabled_error("pad")`): the returned class and message, as a raise site
    # whose `function` is the factory. See `exception_factories` in `extract/__init__.py`.
    factories: tuple[RaiseSite, ...] = ()
    # Functions that build and return a message (`raise TypeError(concretization_err_msg(f))`
    # in JAX 0.1-0.2): see `message_helpers` in `extract/__init__.py`.
    helpers: tuple[MessageHelper, ...] = ()


Item = tuple[ast.AST, "_Scope", Blocks]


@dataclass
class _Scope:
    """Mutable while the pass runs; frozen into FunctionFacts after it."""

    qualname: str
    kind: str  # "module" | "class" | "function"
    parent: _Scope | None
    klass: str | None = None
    calls: set[Chain] = field(default_factory=set)
    refs: set[Chain] = field(default_factory=set)
    local_defs: set[str] = field(default_factory=set)
    bindings: dict[str, list[Binding]] = field(default_factory=dict)

    def bind(
        self,
        name: str,
        line: int,
        blocks: Blocks,
        value: ast.expr | None = None,
        augmented: bool = False,
    ) -> None:
        self.bindings.setdefault(name, []).append(Binding(line, value, blocks, augmented))

    def child_qualname(self, name: str) -> str:
        if self.kind == "module":
            return name
        return (
            f"{self.qualname}.{name}"
            if self.kind == "class"
            else f"{self.qualname}.<locals>.{name}"
        )


def analyse(relative: str, text: str, class_messages: bool = False) -> ModuleFacts | str:
    """Facts of one file, or why it could not be read. `class_messages`: an exception class's
    `super().__init__(msg)` counts as a raise site of that class (see `classes.is_super_init`)."""
    try:
        tree = ast.parse(text, filename=relative)
    except SyntaxError as exc:
        return f"syntax error: {exc.msg} (line {exc.lineno})"
    facts = _Pass(relative, class_messages).run(tree)
    return replace(facts, classes=class_facts(tree))


# A class name that reads as an exception's (what a factory's `return X(msg)` must construct).
_EXCEPTION_NAME = re.compile(r"(Error|Exception)$")

# Leaves and operator tokens: nothing under them names a function or raises.
_LEAVES = (ast.Constant, ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
_BLOCK_OWNERS = (ast.stmt, ast.excepthandler, ast.match_case)


def _children(node: ast.AST, scope: _Scope, blocks: Blocks, owners: dict[int, int]) -> list[Item]:
    """Child nodes; a statement's bodies open blocks (`msg = ...` must enclose its raise),
    each recorded in `owners` with the statement it belongs to (an `if`'s two branches)."""
    owner = isinstance(node, _BLOCK_OWNERS)
    out: list[Item] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if type(value) is list:
            inner = blocks
            if owner and value and isinstance(value[0], ast.stmt):
                inner = blocks + (id(value),)
                owners[id(value)] = id(node)
            out.extend(
                (item, scope, inner)
                for item in value
                if isinstance(item, ast.AST) and not isinstance(item, _LEAVES)
            )
        elif isinstance(value, ast.AST) and not isinstance(value, _LEAVES):
            out.append((value, scope, blocks))
    return out


class _Pass:
    def __init__(self, relative: str, class_messages: bool = False) -> None:
        self.relative = relative
        self.class_messages = class_messages
        self.module = module_name(relative)
        self.is_package = relative.endswith("/__init__.py")
        self.scopes: list[_Scope] = []
        self.raises: list[tuple[ast.Raise, _Scope, Blocks]] = []
        self.returns: list[tuple[ast.Return, _Scope, Blocks]] = []  # `return SomeError(...)`
        # Every `return` of each module-level function, for message helpers (`class_messages`).
        self.defined: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.all_returns: dict[str, list[tuple[ast.Return, _Scope, Blocks]]] = {}
        self.asserted: dict[int, int] = {}  # id(raise standing for an assert) -> id(assert)
        self.warns: list[tuple[ast.Call, Chain, _Scope, Blocks]] = []  # may warn: `warns.py`
        self.logs: list[tuple[ast.Call, Chain, _Scope, Blocks]] = []  # may log: `logs.py`
        self.methods: dict[str, set[str]] = {}
        self.imports: dict[str, Import] = {}
        self.renamed: set[str] = set()
        # Statement list -> the statement owning it: tells an `if`'s branches apart.
        self.owners: dict[int, int] = {}

    def run(self, tree: ast.Module) -> ModuleFacts:
        top = _Scope(MODULE_SCOPE, "module", None)
        stack: list[Item] = [(n, top, ()) for n in reversed(tree.body)]
        while stack:
            node, scope, blocks = stack.pop()
            stack.extend(reversed(self._visit(node, scope, blocks)))
        sites: list[RaiseSite] = []
        skipped: list[Skipped] = []
        warned: list[RaiseSite] = []
        # Told apart once every module-level import is known (some follow the functions).
        warns = [(c, h, s, b) for c, ch, s, b in self.warns if (h := warn_call(ch, self.imports))]
        loggers = module_loggers(_module_statements(tree.body), self.imports) if self.logs else None
        logs = [
            (c, logged_how, s, b)
            for c, ch, s, b in self.logs
            if loggers is not None and (logged_how := log_call(ch, c, self.imports, loggers))
        ]
        calls = frozenset(id(call) for call, *_ in (*warns, *logs))
        guards = raise_guards(tree, calls) if self.raises or calls else {}
        for node, scope, blocks in self.raises:
            condition = guards.get(self.asserted.get(id(node), id(node)), "")
            found = self._sites_of(node, scope, blocks, condition)
            if id(node) in self.asserted:
                found = [_asserted(f) if isinstance(f, RaiseSite) else f for f in found]
            sites += [f for f in found if isinstance(f, RaiseSite)]
            skipped += [f for f in found if isinstance(f, Skipped)]
        factories: list[RaiseSite] = []
        for ret, scope, blocks in self.returns:
            raised = ast.Raise(exc=ret.value, cause=None, lineno=ret.lineno, col_offset=0)
            lookup = _lookup(scope, ret.lineno, blocks)
            made = site_of(self.relative, raised, scope.qualname, lookup)
            if isinstance(made, RaiseSite) and _EXCEPTION_NAME.search(made.exception):
                factories.append(made)
        helpers = [
            helper
            for name, returns in self.all_returns.items()
            if (helper := _message_helper(self.defined[name], returns)) is not None
        ]
        for call, how, scope, blocks in warns:
            lookup = _lookup(scope, call.lineno, blocks, self.class_messages)
            condition = guards.get(id(call), "")
            site = warning_site(self.relative, call, how, scope.qualname, lookup, condition)
            warned += [site] if site else []
        warned += deprecation_table_sites(self.relative, _module_statements(tree.body))
        for call, log, scope, blocks in logs:
            lookup = _lookup(scope, call.lineno, blocks, self.class_messages)
            condition = guards.get(id(call), "")
            logged = log_site(self.relative, call, log, scope.qualname, lookup, condition)
            warned += [logged] if logged else []
        defs = {n.name: "class" if isinstance(n, ast.ClassDef) else "def" for n in _defs(tree.body)}
        return ModuleFacts(
            file=self.relative,
            module=self.module,
            is_package=self.is_package,
            defs=defs,
            methods={k: frozenset(v) for k, v in self.methods.items()},
            imports=self.imports,
            aliases=_aliases(tree.body),
            variables=frozenset(n for n in top.bindings if n not in defs and n not in self.imports),
            renamed=frozenset(self.renamed),
            all_names=_all_names(tree.body),
            registrations=_registrations(tree.body),
            functions=tuple(
                FunctionFacts(
                    qualname=s.qualname,
                    parent=s.parent.qualname if s.parent and s.parent.kind == "function" else None,
                    klass=s.klass,
                    calls=frozenset(s.calls),
                    refs=frozenset(s.refs),
                    local_defs=frozenset(s.local_defs),
                    local_names=frozenset(s.bindings),
                )
                for s in self.scopes
            ),
            sites=tuple(sites),
            skipped=tuple(skipped),
            warned=tuple(warned),
            factories=tuple(factories),
            helpers=tuple(helpers),
        )

    def _sites_of(
        self, node: ast.Raise, scope: _Scope, blocks: Blocks, condition: str
    ) -> list[RaiseSite | Skipped]:
        """The raise's site; when its message is a variable worded on several paths of its
        function (`reaching`), one site per path's template."""
        base = _lookup(scope, node.lineno, blocks, self.class_messages)
        if isinstance(node.exc, ast.Name):
            built = self._built(node, node.exc.id, scope, blocks, condition)
            if built:
                return built
        unresolved: list[str] = []

        def recording(name: str) -> ast.expr | None:
            value = base(name)
            if value is None:
                unresolved.append(name)
            return value

        found = site_of(self.relative, node, scope.qualname, recording, condition)
        if isinstance(found, RaiseSite) or not unresolved:
            return [found]
        name = unresolved[0]
        variants: dict[str, RaiseSite] = {}
        paths = reaching(scope.bindings.get(name, []), node.lineno, blocks, self.owners)
        for value in paths:
            if _bound_format(value) and not self.class_messages:
                continue  # as `_lookup` reads it: the older releases' reading only

            def chosen(asked: str, value: ast.expr = value) -> ast.expr | None:
                return value if asked == name else base(asked)

            site = site_of(self.relative, node, scope.qualname, chosen, condition)
            # A class, not a factory function (`raise key_reuse_error(...)`).
            if isinstance(site, RaiseSite) and site.exception[:1].isupper():
                variants.setdefault(site.template, site)
        return list(variants.values()) or [found]

    def _built(
        self, node: ast.Raise, name: str, scope: _Scope, blocks: Blocks, condition: str
    ) -> list[RaiseSite | Skipped]:
        """`exc = TreePathError(f"..."); raise exc from e` (Equinox): the exception built in a
        variable of the function is raised as if built in the `raise` itself."""
        paths = reaching(scope.bindings.get(name, []), node.lineno, blocks, self.owners)
        found: list[RaiseSite | Skipped] = []
        for value in paths:
            called = exception_name(value.func) if isinstance(value, ast.Call) else None
            if called is None or not called[:1].isupper():
                return []  # a path holding anything else: what is raised is not known
            raised = ast.Raise(exc=value, cause=node.cause, lineno=node.lineno, col_offset=0)
            found += self._sites_of(raised, scope, blocks, condition)
        return found

    def _visit(self, node: ast.AST, scope: _Scope, blocks: Blocks) -> list[Item]:
        """Handle one node; return its children to visit, each with its scope."""
        kind = type(node)
        if kind is ast.Name:
            name = cast(ast.Name, node)
            if type(name.ctx) is ast.Load:
                scope.refs.add((name.id,))
            else:
                scope.bind(name.id, name.lineno, blocks)
            return []
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return self._function(node, scope, blocks)
        if isinstance(node, ast.ClassDef):
            scope.bind(node.name, line, blocks)
            inner = _Scope(scope.child_qualname(node.name), "class", scope)
            outer = [*node.decorator_list, *node.bases, *node.keywords]
            body = blocks + (id(node.body),)
            return [(n, scope, blocks) for n in outer] + [(n, inner, body) for n in node.body]
        if isinstance(node, ast.Raise):
            self.raises.append((node, scope, blocks))
        elif isinstance(node, ast.Assert) and node.msg is not None and self.class_messages:
            # `assert test, msg` raises `AssertionError(msg)` when the test fails.
            raised = _assert_raise(node)
            self.asserted[id(raised)] = id(node)
            self.raises.append((raised, scope, blocks))
        elif (
            isinstance(node, ast.Return)
            and scope.kind == "function"
            and scope.parent is not None
            and scope.parent.kind == "module"
        ):
            if isinstance(node.value, ast.Call):
                self.returns.append((node, scope, blocks))
            if self.class_messages:
                self.all_returns.setdefault(scope.qualname, []).append((node, scope, blocks))
        elif isinstance(node, ast.Call):
            if (
                self.class_messages
                and scope.klass is not None
                and is_super_init(node, scope.qualname, scope.klass)
            ):
                self.raises.append((as_raise(node, scope.klass), scope, blocks))
            chain = chain_of(node.func)
            if chain is not None:
                if may_warn(chain):
                    self.warns.append((node, chain, scope, blocks))
                if may_log(chain):  # `logger.warn(...)` may do either
                    self.logs.append((node, chain, scope, blocks))
                scope.calls.add(chain)
                return [(n, scope, blocks) for n in (*node.args, *node.keywords)]
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            chain = chain_of(node)
            if chain is not None:
                scope.refs.add(chain)
                return []
        elif isinstance(node, ast.Assign):
            target = node.targets[0]
            if len(node.targets) == 1 and isinstance(target, ast.Name):
                scope.bind(target.id, line, blocks, node.value)
                return [(node.value, scope, blocks)]
        elif (
            isinstance(node, ast.AugAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(node.op, ast.Add)
        ):
            scope.bind(node.target.id, line, blocks, node.value, augmented=True)
            return [(node.value, scope, blocks)]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            scope.bind(node.name, line, blocks)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self._import(node, scope, blocks)
            return []
        return _children(node, scope, blocks, self.owners)

    def _function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope, blocks: Blocks
    ) -> list[Item]:
        scope.bind(node.name, node.lineno, blocks)
        if scope.kind == "function":
            scope.local_defs.add(node.name)
        klass = scope.qualname if scope.kind == "class" else None
        if klass is not None:
            self.methods.setdefault(klass, set()).add(node.name)
        inner = _Scope(scope.child_qualname(node.name), "function", scope, klass=klass)
        if scope.kind == "module":
            self.defined[inner.qualname] = node
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None:
                inner.bind(arg.arg, node.lineno, ())
        self.scopes.append(inner)
        outer = [*node.decorator_list, *args.defaults, *(d for d in args.kw_defaults if d)]
        body = (id(node.body),)
        return [(n, scope, blocks) for n in outer] + [(n, inner, body) for n in node.body]

    def _import(self, node: ast.Import | ast.ImportFrom, scope: _Scope, blocks: Blocks) -> None:
        for alias in node.names:
            if isinstance(node, ast.Import):
                local = alias.asname or alias.name.split(".", 1)[0]
                target: Import = (alias.name if alias.asname else local, None)
            else:
                local = alias.asname or alias.name
                target = (self._from_module(node), alias.name)
            scope.bind(local, node.lineno, blocks)
            if scope.kind == "module" and alias.name != "*":
                self.imports[local] = target
                if alias.asname is not None:
                    self.renamed.add(local)

    def _from_module(self, node: ast.ImportFrom) -> str:
        return absolute_module(self.module, self.is_package, node.module, node.level)


def _assert_raise(node: ast.Assert) -> ast.Raise:
    assert node.msg is not None
    call = ast.Call(ast.Name("AssertionError", ast.Load()), [node.msg], [])
    return ast.Raise(exc=call, cause=None, lineno=node.lineno, col_offset=node.col_offset)


# An assert's message is often a dump of the values compared (`f"{x} != {y}"`, `(a, b)`); one
# with fewer literal characters than this (spaces aside) names no error. The catalog's matcher
# reads no template with fewer (`catalog.templates.MIN_LITERAL`).
_ASSERT_MIN_LITERAL = 8


def _asserted(site: RaiseSite) -> RaiseSite | Skipped:
    pieces = parse_template(site.template)
    literal = "".join(p.text for p in pieces if isinstance(p, Lit))
    if len("".join(literal.split())) >= _ASSERT_MIN_LITERAL:
        return site
    reason = "assert message of values, too little literal text"
    return Skipped(site.file, site.line, reason, site.exception, site.function, site.condition)


def _message_helper(
    node: ast.FunctionDef | ast.AsyncFunctionDef, returns: list[tuple[ast.Return, _Scope, Blocks]]
) -> MessageHelper | None:
    """The function as a message helper: every `return` gives the same template (read through
    the function's local assignments, its parameters left as placeholders), one with literal
    text; None otherwise (a function returning anything else on some path is no helper)."""
    found: set[str] = set()
    for ret, scope, blocks in returns:
        if ret.value is None:
            return None
        template = template_of(ret.value, _lookup(scope, ret.lineno, blocks))
        if isinstance(template, Skip):
            return None
        found.add(template)
    if len(found) != 1:
        return None
    (template,) = found
    if not any(isinstance(p, Lit) and p.text.strip() for p in parse_template(template)):
        return None
    args = node.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    parameters = (*positional, *(a.arg for a in args.kwonlyargs))
    defaulted = [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d),
    ]
    defaults = tuple(
        (name, text) for name, value in defaulted if (text := _default_text(node, name, value))
    )
    return MessageHelper(node.name, template, parameters, len(positional), defaults)


def _default_text(
    node: ast.FunctionDef | ast.AsyncFunctionDef, name: str, value: ast.expr
) -> str | None:
    """A parameter's default as literal text: a string default, or a `None` default that the
    body's first-level `if name is None: name = "..."` replaces (JAX 0.1.60's
    `concretization_err_msg(fun, context=None)`)."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value
    if not (isinstance(value, ast.Constant) and value.value is None):
        return None
    for statement in node.body:
        if not (
            isinstance(statement, ast.If)
            and not statement.orelse
            and len(statement.body) == 1
            and isinstance(statement.test, ast.Compare)
            and isinstance(statement.test.left, ast.Name)
            and statement.test.left.id == name
            and len(statement.test.ops) == 1
            and isinstance(statement.test.ops[0], ast.Is)
            and isinstance(statement.test.comparators[0], ast.Constant)
            and statement.test.comparators[0].value is None
        ):
            continue
        (assigned,) = statement.body
        if (
            isinstance(assigned, ast.Assign)
            and len(assigned.targets) == 1
            and isinstance(assigned.targets[0], ast.Name)
            and assigned.targets[0].id == name
        ):
            return _plain_text(template_of(assigned.value))
    return None


def _plain_text(template: str | Skip) -> str | None:
    """A template's text when it has no placeholders."""
    if isinstance(template, Skip):
        return None
    pieces = parse_template(template)
    if any(isinstance(p, Hole) for p in pieces):
        return None
    return "".join(p.text for p in pieces if isinstance(p, Lit))


def _bound_format(value: ast.expr) -> bool:
    return isinstance(value, ast.Attribute) and value.attr == "format"


def _lookup(scope: _Scope, line: int, blocks: Blocks, bound_format: bool = True) -> Lookup:
    """`msg` -> the value of the `msg = ...` a raise sees, when that is unambiguous: in the
    raise's own scope, the nearest binding before it, a plain assignment in a block enclosing
    the raise (not a sibling branch); in enclosing functions or the module, the only binding.
    `bound_format`: also a literal's bound `.format` (`msg = "...".format`, then `msg(...)`),
    read for the older releases only so far (the main index was made without it; read with
    it, JAX 0.10.2 gains four templates, jax.grad's scalar-output check among them)."""

    def lookup(name: str) -> ast.expr | None:
        value = find(name)
        if not bound_format and value is not None and _bound_format(value):
            return None
        return value

    def find(name: str) -> ast.expr | None:
        current: _Scope | None = scope
        innermost = True
        while current is not None:
            if current.kind == "class" and not innermost:
                current = current.parent
                continue
            found = current.bindings.get(name)
            if found:
                if innermost:
                    before = [b for b in found if b.line < line]
                    nearest = max(before, key=lambda b: b.line) if before else None
                    if nearest is None or nearest.augmented or not nearest.encloses(blocks):
                        return None
                    return nearest.value
                return found[0].value if len(found) == 1 and not found[0].augmented else None
            current, innermost = current.parent, False
        return None

    return lookup


def _module_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """Module-level statements, including those under module-level `if`/`try`/`with`."""
    out: list[ast.stmt] = []
    todo = list(reversed(body))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If):
            todo.extend(reversed([*node.body, *node.orelse]))
        elif isinstance(node, ast.Try):
            handlers = [s for h in node.handlers for s in h.body]
            todo.extend(reversed([*node.body, *handlers, *node.orelse, *node.finalbody]))
        elif isinstance(node, ast.With):
            todo.extend(reversed(node.body))
        else:
            out.append(node)
    return out


def _defs(body: list[ast.stmt]) -> list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    return [
        n
        for n in _module_statements(body)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]


def _aliased_chain(value: ast.expr) -> Chain | None:
    if isinstance(value, ast.Call) and value.args:
        callee = chain_of(value.func)
        if callee is not None and callee[-1] == "partial":
            return chain_of(value.args[0])
        return None
    return chain_of(value)


def _aliases(body: list[ast.stmt]) -> dict[str, Chain]:
    found: dict[str, Chain] = {}
    for node in _module_statements(body):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            chain = _aliased_chain(value)
            if chain is not None and chain != (target.id,):
                found[target.id] = chain
    return found


def _all_names(body: list[ast.stmt]) -> tuple[str, ...] | None:
    for node in _module_statements(body):
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, (ast.List, ast.Tuple))
        ):
            return tuple(
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            )
    return None


def _registrations(body: list[ast.stmt]) -> tuple[frozenset[Chain], ...]:
    """Module-level statements that tie functions to a primitive (`reshape_p = standard_primitive(
    _reshape_shape_rule, ...)`, `ad.primitive_jvps[p] = _jvp`): the names they pass along."""
    found: list[frozenset[Chain]] = []
    for statement in _module_statements(body):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            continue
        chains: set[Chain] = set()
        todo: list[ast.AST] = [statement]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Call):
                # The called function runs at import time; only its arguments are rules.
                todo.extend([*node.args, *node.keywords])
                continue
            chain = chain_of(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
            if chain is not None:
                chains.add(chain)
                continue
            todo.extend(ast.iter_child_nodes(node))
        if any(c[-1].endswith("_p") for c in chains):
            found.append(frozenset(chains))
    return tuple(found)
