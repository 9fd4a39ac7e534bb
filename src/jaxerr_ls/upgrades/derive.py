"""Renames derived from JAX's own sources, for every release read (0.1-0.10.2) -> `catalog/
renames.json`. Pure: the API history and each release's public names -> definitions in, a
JSON-ready dict out (`python -m jaxerr_ls.upgrades.derive HISTORY TARGETS... -o FILE`).

A name the newest release lacks (or deprecates) gets a replacement when
- JAX's deprecation message (or a deprecated function's own warning) names one that the newest
  release has, and asks for nothing more than the name: safe when some release read has both
  names as the same object (`jnp.product` was `jnp.prod`), when JAX calls it a drop-in, or (a
  module) when JAX says to import the new one instead or it has every public name of the old;
  otherwise offered unsafe with the reason;
- or, JAX naming nothing, it was an alias: in the last release that has it another public name
  the newest release still has is the same object (`jax.abstract_arrays.ShapedArray` was
  `jax.core.ShapedArray`) -> safe, "the same object in JAX <release>";
- or it was the same object as a name renamed so (`jax.tree_multimap` was
  `jax.tree_util.tree_multimap`).
Names whose replacement is a method call (`jax.ops.index_update(x, i, v)` -> `x.at[i].set(v)`)
are listed in `METHODS`, from JAX's own messages (0.2.x: "use x.at[idx].set(y)").
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.upgrades.history import ApiHistory

FORMAT = 1
# jax.ops' index helpers (removed 0.3.x); JAX's deprecation (0.2.22-0.3.x) said "Use
# x.at[idx].set(y) instead." and the like. The method each became, on the array's `.at[idx]`
# (index_mul's message said `.mul`, since renamed `.multiply`).
METHODS = {
    "jax.ops.index_update": "set",
    "jax.ops.index_add": "add",
    "jax.ops.index_mul": "multiply",
    "jax.ops.index_min": "min",
    "jax.ops.index_max": "max",
}
_SAME = "the same object in JAX {release}"


def warned_defs(files: Mapping[str, str]) -> dict[str, str]:
    """`module:function` -> the deprecation warning its body issues first (0.2-0.3 deprecated
    functions this way: "jax.tree_util.tree_multimap() is deprecated. Please use
    jax.tree_util.tree_map() instead as a drop-in replacement.")."""
    from jaxerr_ls.extract.source import module_name

    found: dict[str, str] = {}
    for relative, text in files.items():
        if "warn" not in text or "eprecat" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            for statement in node.body[:3]:
                call = statement.value if isinstance(statement, ast.Expr) else None
                if not isinstance(call, ast.Call) or not call.args:
                    continue
                name = getattr(call.func, "attr", getattr(call.func, "id", ""))
                first = call.args[0]
                if name == "warn" and isinstance(first, ast.Constant):
                    message = " ".join(str(first.value).split())
                    if "deprecat" in message.lower():
                        found[f"{module_name(relative)}:{node.name}"] = message
    return found


def targets_of(path: Path) -> tuple[str, dict[str, str]]:
    """A release's public names -> definitions (what `extract` computes alongside its index),
    read from its wheel or source distribution."""
    from jaxerr_ls.extract.apis import Resolver, public_targets
    from jaxerr_ls.extract.source import read_source
    from jaxerr_ls.extract.walk import ModuleFacts, analyse

    source = read_source(path)
    modules: dict[str, ModuleFacts] = {}
    for relative, text in sorted(source.files.items()):
        facts = analyse(relative, text)
        if not isinstance(facts, str):
            modules[facts.module] = facts
    return source.version, public_targets(modules, Resolver(modules))


def _method_message(name: str, warned: Mapping[str, Mapping[str, str]]) -> str:
    """JAX's own deprecation of an index helper ("index_update is deprecated. Use
    x.at[idx].set(y) instead."), from the newest release read that warns."""
    short = name.rsplit(".", 1)[-1]
    for release in sorted(warned, key=version_key, reverse=True):
        for function, message in warned[release].items():
            if function.endswith(f":{short}"):
                return message
    return ""


_ADVICE = re.compile(r"\b(?:[Uu]sed?|import)\s+(?P<what>.+?)(?:\.(?=\s|$)|;|,|$)")


def _more_than_a_name(message: str, new: str) -> bool:
    """JAX's advice asks for more than the new name ("use jax.random.permutation with
    independent=True", "use jnp.sort(a, axis=0)"): not a rename."""
    found = _ADVICE.search(message)
    if found is None:
        return False
    what = found.group("what").split(" instead")[0].split(" (")[0].replace("`", "").strip()
    what = what.removesuffix("()").replace("jnp.", "jax.numpy.").replace("lax.", "jax.lax.")
    return what.replace("jax.jax.", "jax.") != new


def _alive(history: ApiHistory, name: str) -> bool:
    verdict = history.verdict(name, history.newest)
    return verdict is not None and verdict.status == "ok"


def _rank(old: str, new: str) -> tuple[int, int, int, str]:
    """Same module first, then the same last part (a move), then the shorter name."""
    old_module, _, old_attr = old.rpartition(".")
    new_module, _, new_attr = new.rpartition(".")
    return (old_module != new_module, old_attr != new_attr, len(new), new)


def _alias_of(
    name: str, history: ApiHistory, targets: Mapping[str, Mapping[str, str]], last: str
) -> str:
    known = targets.get(last, {})
    target = known.get(name)
    if not target:
        return ""
    same = [n for n, t in known.items() if t == target and n != name and _alive(history, n)]
    same = [n for n in same if not n.split(".")[-1].startswith("_")]
    # Not from stable code into an experimental module (`jax.core.Shape` is also imported by
    # `jax.experimental.rnn`: the same object, not a home to send users to).
    if not name.startswith("jax.experimental."):
        same = [n for n in same if not n.startswith("jax.experimental.")]
    return min(same, key=lambda n: _rank(name, n)) if same else ""


def _same_somewhere(old: str, new: str, targets: Mapping[str, Mapping[str, str]]) -> str:
    for release, known in targets.items():
        if known.get(old) and known.get(old) == known.get(new):
            return release
    return ""


def _module_superset(history: ApiHistory, old: str, new: str) -> str:
    """A release having both modules where the new one has every public name of the old."""
    for release in reversed(history.releases):
        names_old = _module_names(history, old, release)
        names_new = _module_names(history, new, release)
        if names_old and names_new is not None and names_old <= names_new:
            return release
    return ""


def _module_names(history: ApiHistory, module: str, release: str) -> set[str] | None:
    verdict = history.verdict(module, release)
    if verdict is None or verdict.status not in ("ok", "deprecated"):
        return None
    found = set()
    for attribute in history.attribute_names(module):
        answer = history.verdict(f"{module}.{attribute}", release)
        if answer is not None and answer.status in ("ok", "deprecated"):
            found.add(attribute)
    return found


def derive(
    history: ApiHistory,
    targets: Mapping[str, Mapping[str, str]],
    warned: Mapping[str, Mapping[str, str]] | None = None,
) -> tuple[dict[str, dict[str, object]], dict[str, int]]:
    """`warned`: per release, `warned_defs` of its sources."""
    from jaxerr_ls.upgrades.build import replacement_in

    renames: dict[str, dict[str, object]] = {}
    figures = {
        "alias": 0,
        "message_safe": 0,
        "message_unsafe": 0,
        "method": 0,
        "alias_of_renamed": 0,
    }
    warned = warned or {}
    names = list(history.module_names())
    for module in history.module_names():
        names += [f"{module}.{attribute}" for attribute in history.attribute_names(module)]
    for name in sorted(set(names)):
        verdict = history.verdict(name, history.newest)
        if verdict is None or verdict.status not in ("removed", "deprecated"):
            continue
        facts = verdict.facts
        if name in METHODS:
            said = _method_message(name, warned)
            renames[name] = {
                "new": f"x.at[i].{METHODS[name]}(y)",
                "method": METHODS[name],
                "safe": True,
                "why": f"JAX's message: {said}" if said else "JAX's changelog (0.2.22)",
            }
            figures["method"] += 1
            continue
        last = facts.last_release
        new, message = facts.replacement, facts.message
        if not new and last:  # a deprecated function's own warning (0.2-0.3)
            message = warned.get(last, {}).get(targets.get(last, {}).get(name, ""), "")
            new = replacement_in(message)
        usable = bool(new) and new != name and _alive(history, new)
        if not usable or _more_than_a_name(message, new):
            # JAX names nothing usable: an alias of a name still there, when it was one.
            alias = _alias_of(name, history, targets, last) if last and not usable else ""
            if alias:
                renames[name] = {"new": alias, "safe": True, "why": _SAME.format(release=last)}
                figures["alias"] += 1
            continue
        release = _same_somewhere(name, new, targets)
        if not release and "drop-in" in message:
            renames[name] = {"new": new, "safe": True, "why": f"JAX's message: {message}"}
            figures["message_safe"] += 1
            continue
        if not release and facts.is_module and f"import {new} instead" in message:
            # A moved module whose old name JAX told users to import the new one instead of.
            release, why = facts.deprecated_in or last, f"JAX's message: {message}"
        elif not release and facts.is_module:
            release = _module_superset(history, name, new)
            why = f"every public name of {name} is in {new} (JAX {release})" if release else ""
        else:
            why = _SAME.format(release=release) if release else ""
        if release:
            renames[name] = {"new": new, "safe": True, "why": why}
            figures["message_safe"] += 1
        else:
            renames[name] = {
                "new": new,
                "safe": False,
                "why": "JAX's deprecation message names it, but no release read has both as "
                "the same object: check the arguments and results",
            }
            figures["message_unsafe"] += 1
    _inherit(history, targets, renames, figures)
    return renames, figures


def _inherit(
    history: ApiHistory,
    targets: Mapping[str, Mapping[str, str]],
    renames: dict[str, dict[str, object]],
    figures: dict[str, int],
) -> None:
    """A removed name that was the same object as a renamed one takes its rename
    (`jax.tree_multimap` was `jax.tree_util.tree_multimap`, which JAX replaced)."""
    for module in history.module_names():
        for attribute in history.attribute_names(module):
            name = f"{module}.{attribute}"
            verdict = history.verdict(name, history.newest)
            if name in renames or verdict is None or verdict.status != "removed":
                continue
            # The last release read that resolves the name (a lazy re-export may not).
            last = verdict.facts.last_release
            for release in reversed(history.releases[: history.releases.index(last) + 1]):
                if name in targets.get(release, {}):
                    last = release
                    break
            known = targets.get(last, {})
            target = known.get(name)
            twin = next(
                (n for n, t in sorted(known.items()) if t == target and n in renames and n != name),
                None,
            )
            if target and twin is not None and not renames[twin].get("method"):
                renames[name] = {
                    **renames[twin],
                    "why": f"the same object as {twin} in JAX {last}; {renames[twin]['why']}",
                }
                figures["alias_of_renamed"] += 1


def render(renames: Mapping[str, Mapping[str, object]], releases: Sequence[str]) -> str:
    lines = ["{", f'"format":{FORMAT},', f'"releases":{json.dumps(list(releases))},', '"renames":{']
    rows = [
        f"{json.dumps(k)}:{json.dumps(v, sort_keys=True, separators=(',', ':'))},"
        for k, v in sorted(renames.items())
    ]
    if rows:
        rows[-1] = rows[-1].rstrip(",")
    return "\n".join([*lines, *rows, "}", "}"]) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    from jaxerr_ls.upgrades.history import load_history

    parser = argparse.ArgumentParser(prog="python -m jaxerr_ls.upgrades.derive")
    parser.add_argument("history", type=Path)
    parser.add_argument("targets", type=Path, nargs="+", help="JSON: release -> name -> target")
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--sources", type=Path, nargs="*", default=[], help="sdists/wheels")
    parser.add_argument("--warned", type=Path, default=None, help="keep/read the warnings found")
    parser.add_argument(
        "--targets-of", type=Path, nargs="*", default=[], help="read these releases' names too"
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    history = load_history(args.history)
    targets: dict[str, dict[str, str]] = {}
    for path in args.targets:
        targets.update(json.loads(path.read_text(encoding="utf-8")))
    from jaxerr_ls.extract.source import read_source

    for path in args.targets_of:
        version, found = targets_of(path)
        targets[version] = found
    warned: dict[str, dict[str, str]] = {}
    if args.warned is not None and args.warned.is_file():
        warned = json.loads(args.warned.read_text(encoding="utf-8"))
    for path in args.sources:
        source = read_source(path)
        warned[source.version] = warned_defs(source.files)
    if args.warned is not None and args.sources:
        args.warned.write_text(json.dumps(warned, sort_keys=True), encoding="utf-8")
    renames, figures = derive(history, targets, warned)
    args.output.write_text(render(renames, history.releases), encoding="utf-8")
    print(f"{args.output}: {len(renames)} renames; {figures}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
