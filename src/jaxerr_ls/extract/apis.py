"""Which public APIs reach each function: exports read statically, calls followed a few hops.

Public modules are the package's (`jax`, `flax`, `orbax.checkpoint`, ...) modules whose dotted
names have no `_`-prefixed part. Their exports are `__all__` when given, else their public
definitions and names imported with `as` (JAX's re-export style) — and, for libraries that
re-export with a plain `from ._src.alias import adam` (Optax, Orbax), names imported from the
package itself. From each export, calls, callbacks passed along, nested functions and
primitive rules (`p.bind` -> functions registered with `p`) are followed up to `MAX_HOPS` calls.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from jaxerr_ls.extract.walk import Chain, FunctionFacts, ModuleFacts

Node = tuple[str, str]  # (module, qualname)
MAX_HOPS = 2
_MAX_RESOLVE = 12  # import chains longer than this are cycles
_CONSTRUCTORS = ("__init__", "__new__", "__post_init__")
_NOT_PUBLIC = frozenset({"tests", "test_util", "conftest"})


@dataclass(frozen=True)
class Target:
    kind: str  # "def" | "class" | "module" | "var"
    module: str
    name: str


def is_public_module(module: str, package: str = "jax") -> bool:
    parts = module.split(".")
    root = package.split(".")
    return parts[: len(root)] == root and not any(
        p.startswith("_") or p in _NOT_PUBLIC for p in parts
    )


class Resolver:
    """Static name resolution across the package's modules (no imports executed)."""

    def __init__(self, modules: Mapping[str, ModuleFacts]) -> None:
        self.modules = modules
        self._memo: dict[tuple[str, str], Target | None] = {}

    def resolve(self, module: str, name: str, depth: int = 0) -> Target | None:
        key = (module, name)
        if key not in self._memo:
            self._memo[key] = None  # guards cycles while resolving
            self._memo[key] = self._resolve(module, name, depth)
        return self._memo[key]

    def _resolve(self, module: str, name: str, depth: int) -> Target | None:
        facts = self.modules.get(module)
        if facts is None or depth > _MAX_RESOLVE:
            return None
        if name in facts.defs:
            return Target(facts.defs[name], module, name)
        if name in facts.imports:
            source, attribute = facts.imports[name]
            if attribute is None:
                return Target("module", source, source) if source in self.modules else None
            if f"{source}.{attribute}" in self.modules:
                return Target("module", f"{source}.{attribute}", f"{source}.{attribute}")
            return self.resolve(source, attribute, depth + 1)
        if name in facts.aliases:
            return self.resolve_chain(module, facts.aliases[name], depth + 1)
        if name in facts.variables:
            return Target("var", module, name)
        if f"{module}.{name}" in self.modules:
            return Target("module", f"{module}.{name}", f"{module}.{name}")
        return None

    def resolve_chain(self, module: str, chain: Chain, depth: int = 0) -> Target | None:
        target = self.resolve(module, chain[0], depth)
        for attribute in chain[1:]:
            if target is None:
                return None
            if target.kind == "module":
                target = self.resolve(target.module, attribute, depth + 1)
            elif target.kind == "class":
                target = self.method(target, attribute)
            else:
                return None
        return target

    def method(self, klass: Target, name: str) -> Target | None:
        facts = self.modules.get(klass.module)
        if facts is not None and name in facts.methods.get(klass.name, ()):
            return Target("def", klass.module, f"{klass.name}.{name}")
        return None


@dataclass(frozen=True)
class Graph:
    # node -> (callee, cost); cost 0 for nested defs and `p.bind` -> primitive.
    edges: Mapping[Node, tuple[tuple[Node, int], ...]]


def build_graph(modules: Mapping[str, ModuleFacts], resolver: Resolver) -> Graph:
    edges: dict[Node, set[tuple[Node, int]]] = {}
    for facts in modules.values():
        functions = {f.qualname: f for f in facts.functions}
        for function in facts.functions:
            node = (facts.module, function.qualname)
            out = edges.setdefault(node, set())
            if function.parent is not None:
                edges.setdefault((facts.module, function.parent), set()).add((node, 0))
            for chain in function.calls:
                out.update(_call_edges(facts, functions, function, chain, resolver))
            for chain in function.refs:
                target = _scoped(facts, functions, function, chain, resolver)
                if target is not None and target.kind == "def":
                    out.add(((target.module, target.name), 1))
        for statement in facts.registrations:
            targets = [resolver.resolve_chain(facts.module, chain) for chain in sorted(statement)]
            prims = [t for t in targets if t and t.kind == "var" and t.name.endswith("_p")]
            rules = [t for t in targets if t and t.kind == "def"]
            for prim in prims:
                edges.setdefault((prim.module, prim.name), set()).update(
                    ((rule.module, rule.name), 1) for rule in rules
                )
    return Graph({node: tuple(sorted(out)) for node, out in edges.items()})


def _call_edges(
    facts: ModuleFacts,
    functions: Mapping[str, FunctionFacts],
    function: FunctionFacts,
    chain: Chain,
    resolver: Resolver,
) -> Iterable[tuple[Node, int]]:
    if len(chain) > 1 and chain[-1] == "bind":
        # `reshape_p.bind(...)` runs the rules registered for reshape_p.
        prim = _scoped(facts, functions, function, chain[:-1], resolver)
        if prim is not None and prim.kind == "var":
            return [((prim.module, prim.name), 0)]
    target = _scoped(facts, functions, function, chain, resolver)
    if target is None:
        return []
    if target.kind == "def":
        return [((target.module, target.name), 1)]
    if target.kind == "class":
        found = (resolver.method(target, name) for name in _CONSTRUCTORS)
        return [((t.module, t.name), 1) for t in found if t is not None]
    return []


def _scoped(
    facts: ModuleFacts,
    functions: Mapping[str, FunctionFacts],
    function: FunctionFacts,
    chain: Chain,
    resolver: Resolver,
) -> Target | None:
    """Resolve a name used inside `function`: nested defs, `self.method`, then the module."""
    head = chain[0]
    if head in ("self", "cls") and function.klass is not None and len(chain) == 2:
        return resolver.method(Target("class", facts.module, function.klass), chain[1])
    current: FunctionFacts | None = function
    while current is not None:
        if head in current.local_defs:
            if len(chain) > 1:
                return None
            return Target("def", facts.module, f"{current.qualname}.<locals>.{head}")
        if head in current.local_names:
            return None  # a local variable or parameter shadows the module's name
        current = functions.get(current.parent) if current.parent else None
    return resolver.resolve_chain(facts.module, chain)


def public_roots(
    modules: Mapping[str, ModuleFacts],
    resolver: Resolver,
    package: str = "jax",
    plain_imports: bool = False,
) -> dict[Node, set[str]]:
    """Function node -> the public names whose call runs it first."""
    roots: dict[Node, set[str]] = {}
    for module, facts in modules.items():
        if not is_public_module(module, package):
            continue
        for name in exported_names(facts, package if plain_imports else None):
            target = resolver.resolve(module, name)
            if target is None:
                continue
            api = f"{module}.{name}"
            if target.kind == "def":
                roots.setdefault((target.module, target.name), set()).add(api)
            elif target.kind == "class":
                _class_roots(resolver, target, api, roots)
    return roots


def _class_roots(resolver: Resolver, target: Target, api: str, roots: dict[Node, set[str]]) -> None:
    facts = resolver.modules[target.module]
    for method in sorted(facts.methods.get(target.name, ())):
        if method in _CONSTRUCTORS:
            roots.setdefault((target.module, f"{target.name}.{method}"), set()).add(api)
        elif not method.startswith("_"):
            roots.setdefault((target.module, f"{target.name}.{method}"), set()).add(
                f"{api}.{method}"
            )


def exported_names(facts: ModuleFacts, own_package: str | None = None) -> list[str]:
    """`own_package` given: names a package's `__init__` imports from that package count as
    exports too (not a plain module's: those are its own imports, not an API)."""
    if facts.all_names is not None:
        return sorted(set(facts.all_names))
    names = set(facts.defs) | set(facts.aliases) | set(facts.renamed)
    if own_package is not None and facts.is_package:
        root = own_package.split(".")[0]
        names |= {
            local
            for local, (source, attribute) in facts.imports.items()
            if attribute is not None and source.split(".")[0] == root
        }
    return sorted(n for n in names if not n.startswith("_"))


def reach(
    graph: Graph, roots: Mapping[Node, set[str]], max_hops: int = MAX_HOPS
) -> dict[Node, dict[str, int]]:
    """Node -> {public API: fewest calls from it} within `max_hops` calls (0-1 breadth-first)."""
    reached: dict[Node, dict[str, int]] = {}
    for root in sorted(roots):
        apis = roots[root]
        best: dict[Node, int] = {root: 0}
        queue: deque[Node] = deque([root])
        while queue:
            node = queue.popleft()
            cost = best[node]
            for callee, step in graph.edges.get(node, ()):
                total = cost + step
                if total <= max_hops and total < best.get(callee, max_hops + 1):
                    best[callee] = total
                    # Zero-cost edges go first so costs stay minimal.
                    (queue.appendleft if step == 0 else queue.append)(callee)
        for node, depth in best.items():
            found = reached.setdefault(node, {})
            for api in apis:
                if depth < found.get(api, max_hops + 1):
                    found[api] = depth
    return reached
