"""`key-reuse`: one PRNG key consumed twice in straight-line code with no split in between
(`jax.random.normal(key, ...)` then `jax.random.uniform(key, ...)`): the numbers are correlated,
and JAX raises KeyReuseError under `jax_debug_key_reuse`. Only in files that turn that check on
(`jax.config.update("jax_debug_key_reuse", True)`, `jax.debug_key_reuse(True)`, the env var):
elsewhere JAX raises nothing, and tests reuse keys on purpose (seen in optax's).

Entry: random-key-reuse. Quiet when the key is reassigned in between (`key, sub = split(key)`),
across branches and loop iterations (not followed), and for `fold_in`/`key_data`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from jaxerr_ls.analysis import Model
from jaxerr_ls.rules.base import Finding, finding

ENTRY = "random-key-reuse"
_NOT_CONSUMING = frozenset(
    {"key", "PRNGKey", "key_data", "wrap_key_data", "fold_in", "clone", "key_impl", "bits"}
)


def _blocks(tree: ast.AST) -> Iterator[list[ast.stmt]]:
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def _assigned(statement: ast.stmt) -> set[str]:
    names: set[str] = set()
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, ast.AugAssign | ast.AnnAssign):
        targets = [statement.target]
    for target in targets:
        names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


class _KeyReuse:
    id = "key-reuse"
    entries: tuple[str, ...] = (ENTRY,)

    def _consumed(self, model: Model, statement: ast.stmt) -> list[tuple[str, ast.Call]]:
        out: list[tuple[str, ast.Call]] = []
        for node in ast.walk(statement):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                return []  # a nested scope: not followed
            if not isinstance(node, ast.Call):
                continue
            qualified = model.qualify(node.func) or ""
            if not qualified.startswith("jax.random.") or qualified.count(".") != 2:
                continue
            if qualified.rsplit(".", 1)[-1] in _NOT_CONSUMING:
                continue
            keyed = [k.value for k in node.keywords if k.arg == "key"] or node.args[:1]
            if keyed and isinstance(keyed[0], ast.Name):
                out.append((keyed[0].id, node))
        return sorted(out, key=lambda p: (p[1].lineno, p[1].col_offset))

    def check(self, model: Model) -> Iterable[Finding]:
        if "debug_key_reuse" not in model.source.lower():
            return
        for block in _blocks(model.tree):
            used: dict[str, ast.Call] = {}
            for statement in block:
                if isinstance(statement, ast.If | ast.For | ast.While | ast.With | ast.Try):
                    used.clear()  # branches and loops: not followed
                    continue
                for name, call in self._consumed(model, statement):
                    first = used.get(name)
                    if first is not None:
                        function = model.text(first.func)
                        message = (
                            f"KeyReuseError (under jax_debug_key_reuse): `{name}` was already "
                            f"consumed by `{function}` on line {first.lineno}; reusing a key gives "
                            f"correlated numbers. Split it first."
                        )
                        short = (model.qualify(call.func) or "").rsplit(".", 1)[-1]
                        fields = {"funcname": short, "index": "0", "name": name}
                        yield finding(model, call, ENTRY, message, self.id, fields)
                    else:
                        used[name] = call
                for name in _assigned(statement):
                    used.pop(name, None)


RULE = _KeyReuse()
