"""`int-seed`: an integer where a PRNG key is expected: `jax.random.normal(0, ...)`, or a
parameter passed to a sampler as its key when every call of the function in the file passes an
int literal for it.

Entry: random-int-seed-not-key. Quiet on `jax.random.key(0)` / `PRNGKey(0)`, on keys from
`split`, and on parameters some call passes something else for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from jaxerr_ls.analysis import Model
from jaxerr_ls.analysis.build import call_sites_of
from jaxerr_ls.analysis.values import assignments
from jaxerr_ls.rules.base import Finding, finding

ENTRY = "random-int-seed-not-key"
_NOT_KEYED = frozenset(
    {
        "key",
        "PRNGKey",
        "key_data",
        "wrap_key_data",
        "key_impl",
        "default_prng_impl",
        "threefry_2x32",
    }
)


def _int_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _key_arguments(model: Model) -> Iterator[tuple[ast.Call, ast.expr]]:
    for node in ast.walk(model.tree):
        if not isinstance(node, ast.Call):
            continue
        qualified = model.qualify(node.func) or ""
        if not qualified.startswith("jax.random.") or qualified.count(".") != 2:
            continue
        if qualified.rsplit(".", 1)[-1] in _NOT_KEYED:
            continue
        keyed = [k.value for k in node.keywords if k.arg == "key"] or node.args[:1]
        if keyed and not isinstance(keyed[0], ast.Starred):
            yield node, keyed[0]


class _IntSeed:
    id = "int-seed"
    entries: tuple[str, ...] = (ENTRY,)

    def check(self, model: Model) -> Iterable[Finding]:
        for call, key in _key_arguments(model):
            seed = self._seed(model, call, key)
            if seed is None:
                continue
            message = (
                f"TypeError: `{model.text(call.func)}` expects a PRNG key, but `{model.text(key)}` "
                f"is the integer {seed}; make a key with `jax.random.key({seed})`."
            )
            yield finding(model, key, ENTRY, message, self.id, {"seed": seed})

    def _seed(self, model: Model, call: ast.Call, key: ast.expr) -> str | None:
        if _int_literal(key):
            return model.text(key)
        if not isinstance(key, ast.Name):
            return None
        scope = next(iter(model.scopes.scope_of(call)))
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            params = [a.arg for a in [*scope.args.posonlyargs, *scope.args.args]]
            if key.id in params and key.id not in assignments(scope):
                seeds = [site.argument_for(key.id) for site in call_sites_of(model, scope)]
                if seeds and all(s is not None and s.kind == "int" for s in seeds):
                    return seeds[0].text if seeds[0] is not None else None
                return None
        made = assignments(scope).get(key.id)
        if made and len(made) == 1 and made[0][0] is not None and _int_literal(made[0][0]):
            return model.text(made[0][0])
        return None


RULE = _IntSeed()
