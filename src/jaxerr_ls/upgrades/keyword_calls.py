"""Calls that pass a JAX function a keyword the target release does not take, read before the
code runs (`jnp.clip(x, a_min=0)` on JAX 0.10, `jax.jit(f, donate_args=(0,))` on any). Pure
(ast); positions as `uses.py` gives them."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from jaxerr_ls.upgrades.history import normalise
from jaxerr_ls.upgrades.keywords import KeywordFacts, ParameterHistory
from jaxerr_ls.upgrades.uses import FileUses, chain_of

_PARTIAL = ("partial", "functools.partial")


@dataclass(frozen=True)
class KeywordProblem:
    callee: str  # as spelt in the file: "jnp.clip"
    facts: KeywordFacts
    node: ast.keyword  # the offending `name=value`


def _spelt(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    chain = chain_of(node)
    return ".".join(chain) if chain is not None else None


def _qualified(spelt: str, bindings: Mapping[str, str]) -> str | None:
    head, _, rest = spelt.partition(".")
    if head not in bindings:
        return None
    return normalise(bindings[head] + ("." + rest if rest else ""))


def _calls(tree: ast.Module) -> Iterator[tuple[ast.expr, list[ast.keyword]]]:
    """(the function called, the keywords it is given): `f(k=v)`, and `partial(f, k=v)`."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.keywords:
            continue
        if _spelt(node.func) in _PARTIAL and node.args:
            yield node.args[0], node.keywords
        else:
            yield node.func, node.keywords


def keyword_problems(
    tree: ast.Module,
    uses: FileUses,
    history: ParameterHistory,
    release: str,
) -> list[KeywordProblem]:
    """Each keyword a call gives a JAX function that `release` does not take (calls under a
    version test or a `try` that catches the failure are code for several releases: left);
    `uses`: the same tree's names and guarded nodes (`collect_uses`)."""
    bindings, guarded = uses.bindings, uses.guarded
    out: list[KeywordProblem] = []
    for function, keywords in _calls(tree):
        spelt = _spelt(function)
        qualified = _qualified(spelt, bindings) if spelt else None
        if spelt is None or qualified is None or not history.knows(qualified):
            continue
        for keyword in keywords:
            if keyword.arg is None or id(keyword) in guarded:
                continue  # `**options`
            facts = history.facts(qualified, keyword.arg, release)
            if facts is not None:
                out.append(KeywordProblem(spelt, facts, keyword))
    return out
