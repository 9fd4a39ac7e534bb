"""Uses of JAX names that a release lacks (removed, or not added yet) or deprecates. Pure."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxerr_ls.upgrades.describe import describe
from jaxerr_ls.upgrades.history import ApiHistory, Verdict
from jaxerr_ls.upgrades.renames import Rename, rename_for
from jaxerr_ls.upgrades.uses import FileUses, Use, _span, chain_of, collect_uses

_BAD = ("removed", "not-yet")


@dataclass(frozen=True)
class Problem:
    name: str  # the name the release lacks or deprecates ("jax.experimental.maps")
    verdict: Verdict
    rename: Rename | None  # offered when the verdict is removed/deprecated and JAX names it
    use: Use
    line: int  # the span of `name` in the source (0-based, code points)
    column: int
    end_line: int
    end_column: int

    @property
    def message(self) -> str:
        return describe(self.verdict)


def _prefixes(name: str, skip: int) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:k]) for k in range(max(2, skip + 1), len(parts) + 1)]


def _first_problem(
    history: ApiHistory, names: list[str], release: str, module: bool = False
) -> Verdict | None:
    found: Verdict | None = None
    for name in names:
        verdict = history.verdict(name, release, module)
        if verdict is None:
            return found
        if verdict.status in _BAD:
            return verdict
        if verdict.status == "deprecated" and found is None:
            found = verdict
    return found


def _node_for(use: Use, name: str) -> ast.AST:
    """The sub-chain of an attribute use that spells `name` (`jax.experimental.maps` inside
    `jax.experimental.maps.xmap`)."""
    node = use.node
    extra = use.name.count(".") - name.count(".")
    for _ in range(extra):
        if isinstance(node, ast.Attribute):
            node = node.value
    return node


def find_problems(source: str, history: ApiHistory, release: str | None) -> list[Problem]:
    uses = collect_uses(source)
    return [] if uses is None else problems_in(uses, history, release)


def problems_in(uses: FileUses, history: ApiHistory, release: str | None) -> list[Problem]:
    target = history.release_for(release)
    bad_bindings: set[str] = set()
    out: list[Problem] = []
    for use in uses.uses:
        if use.guarded:
            continue
        if any(use.name.startswith(bad + ".") for bad in bad_bindings):
            continue  # its module's import already says it is missing
        if use.kind == "from-import":
            names = [use.name]
        elif use.kind == "attribute":
            root = use.name.split(".")[0] if "." in use.name else use.name
            if use.name in bad_bindings:
                continue
            chain = chain_of(use.node) if isinstance(use.node, ast.expr) else None
            local_root = chain[0] if chain else root
            skip = uses.bindings.get(local_root, root).count(".") + 1
            names = _prefixes(use.name, skip)
        else:
            names = _prefixes(use.name, 1)
        # `import jax.config` needs the module; `from jax import config` takes either.
        verdict = _first_problem(history, names, target, use.kind in ("import", "from-module"))
        if verdict is None:
            continue
        name = verdict.facts.name
        if use.kind in ("from-import", "import", "from-module") and verdict.status in _BAD:
            bad_bindings.add(name)
        if use.kind == "attribute":
            span = _span(uses.lines, _node_for(use, name))
        else:
            span = (use.line, use.column, use.end_line, use.end_column)
        rename = rename_for(name) if verdict.status != "not-yet" else None
        out.append(Problem(name, verdict, rename, use, *span))
    return out
