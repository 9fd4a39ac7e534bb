"""Sentences about a name's history, shared by explanations and predictive diagnostics."""

from __future__ import annotations

import re

from jaxerr_ls.catalog.model import LIBRARIES
from jaxerr_ls.upgrades.history import Verdict


def product_of(name: str) -> str:
    """Whose name it is, as prose says it: "JAX", or a library's ("Flax" for `flax.optim`)."""
    return LIBRARIES.get(name.split(".", 1)[0], "JAX")


def gone_since(verdict: Verdict) -> str:
    """ "in JAX 0.6.0" / "before JAX 0.4.26": when the name stopped working."""
    who = product_of(verdict.facts.name)
    if verdict.removed_in:
        return f"in {who} {verdict.removed_in}"
    facts = verdict.facts
    if facts.spans and facts.last_release:
        return f"after {who} {facts.last_release}"
    return f"before {who} {verdict.oldest}"


# The clause ends at a sentence's period ("i.e." and "e.g." are none) or a semicolon.
_ADVICE = re.compile(r"\b[Uu]sed?\s+(?P<what>.+?)(?:(?<!i\.e)(?<!e\.g)\.(?=\s|$)|;|$)")


def use_instead(verdict: Verdict) -> str:
    """JAX's own advice clause ("use jax.random.permutation with independent=True")."""
    facts = verdict.facts
    if not facts.replacement:
        return _derived(verdict)
    found = _ADVICE.search(facts.message)
    what = found.group("what").strip() if found else facts.replacement
    if facts.replacement not in what.replace("jnp.", "jax.numpy.").replace("`", ""):
        what = facts.replacement
    what = what.removesuffix(" instead").strip()
    if what.count("`") == 2 and what.startswith("`") and what.endswith("`"):
        what = what[1:-1]  # one quoted name; a clause that quotes several keeps its quotes
    return "use " + what


def _derived(verdict: Verdict) -> str:
    """No message of JAX's names a replacement: the rename JAX's sources show (an alias of a
    name still there, a method the helper became), with why."""
    from jaxerr_ls.upgrades.renames import rename_for

    if verdict.status not in ("removed", "deprecated"):
        return ""
    rename = rename_for(verdict.facts.name)
    if rename is None:
        return ""
    if rename.method:
        return f"use x.at[idx].{rename.method}(y) ({rename.why})"
    return f"use {rename.new} ({rename.why})"


def describe(verdict: Verdict, known: bool = True) -> str:
    """One sentence: what the release does with the name, and what JAX says to use. `known`:
    the verdict is for the release that raised (else it is the history's answer alone)."""
    facts, release = verdict.facts, verdict.release
    who = product_of(facts.name)
    kind = "module" if facts.is_module else "name"
    instead = use_instead(verdict)
    said = f"{who} says: " if facts.replacement else ""
    tail = f"; {said}{instead}" if instead else ""
    if verdict.status == "removed":
        last = f" (last in {facts.last_release})" if facts.last_release else ""
        if not facts.spans and facts.earlier:
            last = f" ({who} {facts.earlier} already deprecated it)"
        return (
            f"{facts.name} is not in {who} {release}: the {kind} was removed "
            f"{gone_since(verdict)}{last}{tail}"
        )
    if verdict.status == "not-yet" and not known:
        return (
            f"{facts.name} is in no {who} release before {verdict.added_in}, where the {kind} "
            f"was added: the {who} that raised this is older; upgrade {who} to use it"
        )
    if verdict.status == "not-yet":
        return (
            f"{facts.name} is not in {who} {release}: the {kind} was added in {who} "
            f"{verdict.added_in}; upgrade {who} to use it"
        )
    if verdict.status == "deprecated":
        until = f"; removed in {who} {verdict.removed_in}" if verdict.removed_in else ""
        return f"{facts.name} is deprecated in {who} {release}{until}{tail}"
    return f"{facts.name} is in {who} {release}"
