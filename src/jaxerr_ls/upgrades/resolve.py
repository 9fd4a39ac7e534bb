"""Explain a missing or deprecated JAX name from the API history: which release removed it and
what JAX says to use, or which release added it. Pure: a matched message in, a richer match out.

The curated entries (`removed-api`, `removed-module`, `api-not-yet-added`, `deprecated-api`) hold
the general explanation; this module picks the one the history supports and puts the facts in
front of it, and in the match's fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from jaxerr_ls.catalog.model import Catalog, Entry
from jaxerr_ls.catalog.templates import Match, short_class
from jaxerr_ls.upgrades.absent import (
    before_history_match,
    elsewhere,
    in_another_module,
    is_private,
    private,
    unimported,
)
from jaxerr_ls.upgrades.describe import describe, gone_since, product_of, use_instead
from jaxerr_ls.upgrades.entries import (
    DEPRECATED_API,
    LIBRARY_MEANING,
    NOT_YET_ADDED,
    REMOVED_API,
    REMOVED_MODULE,
    UPGRADE_ENTRIES,
    as_printed,
)
from jaxerr_ls.upgrades.history import ApiHistory, Verdict, normalise
from jaxerr_ls.upgrades.libraries import DOCS, PIP_NAMES, library_history, library_of_name
from jaxerr_ls.upgrades.renames import rename_for

# JAX's names and those of the libraries whose API history the catalog holds (`libraries.py`;
# site/assets/match.js `ROOTS` says the same).
_ROOTS = "(?:" + "|".join(("jax", *PIP_NAMES)) + ")"
_NO_ATTRIBUTE = re.compile(
    # A paste may have wrapped the line at any space.
    rf"module\s+'(?P<module>{_ROOTS}(?:\.\w+)*)'\s+has\s+no\s+attribute\s+'(?P<name>\w+)'"
)
_NO_MODULE = re.compile(rf"No module named '(?P<module>{_ROOTS}(?:\.\w+)+)'")
_CANNOT_IMPORT = re.compile(
    rf"cannot\s+import\s+name\s+'(?P<name>\w+)'\s+from\s+'(?P<module>{_ROOTS}(?:\.\w+)*)'"
)
# JAX's own wording: "jax.tree_map was removed in JAX v0.6.0: use ...", "jnp.trapz is
# deprecated; ...", "jax.random.rbg_key(seed) is deprecated", "pltpu.HOST is deprecated".
_JAX_SAYS = re.compile(
    r"\A(?:The )?(?P<name>(?:jax|jnp|lax|pltpu|pl)(?:\.\w+)+)(?:\(\w*\))?(?: module)?\s+"
    r"(?:was|is|has been|were)\s+(?:removed|deprecated|moved)"
)
_WARNINGS = ("DeprecationWarning", "FutureWarning")


def name_in(exception: str, message: str) -> str | None:
    """The JAX name an error or warning is about, qualified; None when it names none."""
    cls = short_class(exception)
    text = message.strip()
    if cls in ("AttributeError", *_WARNINGS) or cls == "":
        said = _JAX_SAYS.match(text)
        if said is not None:
            return normalise(said.group("name"))
    if cls in ("AttributeError", ""):
        found = _NO_ATTRIBUTE.search(text)
        if found is not None:
            return f"{found.group('module')}.{found.group('name')}"
    if cls in ("ModuleNotFoundError", "ImportError", ""):
        module = _NO_MODULE.search(text)
        if module is not None:
            return module.group("module")
        imported = _CANNOT_IMPORT.search(text)
        if imported is not None:
            return f"{imported.group('module')}.{imported.group('name')}"
    return None


def _verdict(
    history: ApiHistory,
    name: str,
    version: str | None,
    warning: bool,
    module: bool = False,
    said: bool = False,
) -> Verdict | None:
    """The first part of the dotted name the release lacks (or deprecates, for a warning);
    `module`: each part imported as a module (`No module named 'jax.config'`); `said`: the
    warning is JAX's own "X is deprecated", which the history may not have recorded (JAX 0.3's
    `jax.tree_multimap` warned through a wrapper the extractor does not read)."""
    parts = name.split(".")
    prefixes = [".".join(parts[:k]) for k in range(2, len(parts) + 1)]
    for release in (version, None):
        deprecated: Verdict | None = None
        for prefix in prefixes:
            verdict = history.verdict(prefix, release, module)
            if verdict is None:
                break
            if warning and verdict.status == "removed" and verdict.facts.last_release:
                # A release that warns still has the name: the warning came from before it went.
                verdict = history.verdict(prefix, verdict.facts.last_release, module) or verdict
            if said and prefix == name and verdict.status == "ok":
                verdict = replace(verdict, status="deprecated")
            if verdict.status in ("removed", "not-yet"):
                return verdict
            if verdict.status == "deprecated" and deprecated is None:
                deprecated = verdict
        if warning and deprecated is not None:
            return deprecated
        if version is None:
            break
        # The release we were told does not explain the error (it has the name): the error
        # came from another JAX; answer from the history alone.
    facts = history.facts(name, module)
    if facts is not None and facts.spans and not facts.last_release:
        oldest = history.verdict(name, history.oldest, module)
        if oldest is not None and oldest.status == "not-yet":
            return oldest
    return None


def _removed(history: ApiHistory, name: str) -> Verdict | None:
    verdict = history.verdict(name, None)
    return verdict if verdict is not None and verdict.status == "removed" else None


def entry_for(verdict: Verdict) -> str:
    """The curated entry that explains this verdict."""
    if verdict.status == "not-yet":
        return NOT_YET_ADDED
    if verdict.status == "deprecated":
        return DEPRECATED_API
    return REMOVED_MODULE if verdict.facts.is_module else REMOVED_API


def fields_for(verdict: Verdict, version: str | None) -> dict[str, str]:
    facts = verdict.facts
    rename = rename_for(facts.name) if verdict.status != "not-yet" else None
    fields = {
        "name": facts.name,
        "status": verdict.status,
        "release": verdict.release,
        "installed": version or "",
        "added_in": verdict.added_in or facts.added_in,
        "last_release": facts.last_release,
        "removed_in": verdict.removed_in,
        "deprecated_in": facts.deprecated_in,
        "replacement": facts.replacement,
        "jax_message": facts.message,
        "rename_to": rename.new if rename else "",
        "rename_safe": ("true" if rename.safe else "false") if rename else "",
    }
    return {key: value for key, value in fields.items() if value}


def _specific(verdict: Verdict, version: str | None) -> tuple[str, str, list[str]]:
    """Title, first paragraph and solutions for this name."""
    facts = verdict.facts
    name = facts.name
    instead = use_instead(verdict)
    solutions: list[str] = []
    rename = rename_for(name) if verdict.status != "not-yet" else None
    who = product_of(name)
    pip = PIP_NAMES.get(library_of_name(name) or "", "jax")
    if verdict.status == "not-yet":
        title = f"{name} was added in {who} {verdict.added_in}; this {who} is older"
        wanted = verdict.added_in
        solutions.append(
            f"Upgrade {who} to {wanted} or newer (`pip install -U '{pip}>={wanted}'`)."
        )
        if not library_of_name(name):
            which = f"no {who} before {wanted} has"
            if version:
                which = f"{who} {verdict.release} has no"
            solutions.append(f"Or write the code for the {who} you have: {which} {name}.")
    elif verdict.status == "deprecated":
        title = f"{name} is deprecated" + (f"; {instead}" if instead else "")
    else:
        title = f"{name} was removed {gone_since(verdict)}" + (f"; {instead}" if instead else "")
    if instead and verdict.status != "not-yet":
        # (A later release's deprecation advice names what that release has, not this one.)
        solutions.insert(0, f"{who}'s advice: {instead}.")
    if rename is not None:
        kind = "a drop-in rename" if rename.safe else "not a drop-in"
        solutions.insert(
            1 if instead else 0,
            f"`{name}` → `{rename.new}` is {kind}: {rename.why}"
            + (" (quick fix: api-rename)." if rename.safe else "."),
        )
    if verdict.status == "removed" and facts.last_release:
        solutions.append(
            f"Or pin {who} to {facts.last_release} or older until the code is updated."
        )
    said = f' {who}\'s message: "{facts.message}"' if facts.message else ""
    yours = f" (the {who} that raised it: {version})" if version else ""
    first = describe(verdict, known=version is not None) + "." + yours + said
    if library_of_name(name):
        # The installed library release is not known from a traceback: say what the releases
        # read show, and how to check the installed one.
        first = _library_sentence(verdict, who)
        solutions.insert(0, f"Check which {who} is installed: `pip show {pip}`.")
    return title, first, solutions


def _library_sentence(verdict: Verdict, who: str) -> str:
    facts = verdict.facts
    kind = "module" if facts.is_module else "name"
    spans = ", ".join(f"{a}–{b}" if b else f"{a} on" for a, b in facts.spans)
    a = "an" if who[:1] in "AEIOU" else "a"  # an Orbax name, a Flax name
    if verdict.status == "not-yet":
        return (
            f"{facts.name} is {a} {who} {kind} since {who} {verdict.added_in} ({who} {spans}, "
            f"of every release): the {who} that raised this is older than that."
        )
    return (
        f"{facts.name} was {a} {who} {kind} in {who} {spans} and is gone "
        f"{gone_since(verdict)}: the code was written for an older {who} than the one "
        "installed."
    )


def upgrade_match(
    exception: str,
    message: str,
    catalog: Catalog,
    history: ApiHistory,
    version: str | None,
    current: Match | None,
) -> Match | None:
    """The match to show: `current` unless the message is about a JAX name the history knows
    (a curated entry that is not one of ours, e.g. `lax-pvary-removed`, keeps precedence)."""
    if current is not None and current.entry.curated and current.entry.id not in UPGRADE_ENTRIES:
        return current
    fallback = None if current is not None and current.entry.id in UPGRADE_ENTRIES else current
    # Without its class, JAX's deprecation words are still a warning's (haliax#229 quoted one in
    # a comment): never the AttributeError of a name "this release" would lack.
    warning = short_class(exception) in _WARNINGS or (
        not exception.strip()
        and current is not None
        and short_class(current.entry.exception) in _WARNINGS
    )
    spelt = name_in(exception, message)
    name = spelt
    if name is None and _in_jax_words(exception, message):
        name = _warned_name(history, message)
    if name is None:
        return fallback
    if spelt is None and not warning:
        # JAX's own words for a name it removed: the release that raised them still had the
        # name's module, so the name's record answers, whatever JAX is installed here.
        version = None
    library = library_of_name(name)
    if (
        library is None
        and short_class(exception) in ("AttributeError", "")
        and _NO_ATTRIBUTE.search(message) is not None
    ):
        not_imported = unimported(name, catalog, history, version)
        if not_imported is not None:
            return not_imported
    if library is not None:
        # The JAX release says nothing of the library's: the library's history alone answers.
        found = library_history(library)
        if found is None:
            return fallback
        history, version = found, None
    said = warning and _JAX_SAYS.match(message.strip()) is not None and "deprecated" in message
    module = _NO_MODULE.search(message) is not None
    verdict = (
        _removed(history, name)
        if spelt is None and not warning
        else _verdict(history, name, version, warning, module, said)
    )
    if verdict is None and library is not None and not warning:
        earlier = before_history_match(exception, name, library, history, catalog)
        if earlier is not None:
            return earlier
    if verdict is None:
        modules = elsewhere(history, name) if library is None and not warning else []
        if modules:
            return in_another_module(exception, name, modules, catalog) or fallback
        if fallback is None and not warning and is_private(name):
            return private(exception, name, catalog, library)
        return fallback
    entry = catalog.get(entry_for(verdict))
    if entry is None:
        return fallback
    # The release we were told has the name when the history alone answered: it did not raise.
    told = version if version and verdict.release == history.release_for(version) else None
    title, first, solutions = _specific(verdict, told)
    shown = as_printed(
        entry,
        exception,
        title=title,
        meaning=first + "\n\n" + (LIBRARY_MEANING if library else entry.meaning.strip()),
        solutions=(*solutions, *(() if library else entry.solutions)),
        library=library or entry.library,
        # JAX's quick fixes and documentation are about JAX's names only.
        fixes=() if library else entry.fixes,
        docs=DOCS.get(library, "") if library else entry.docs,
    )
    fields = fields_for(verdict, version)
    if library:
        fields.pop("release", None)  # a stand-in: the library release installed is not known
    return Match(shown, fields, 100)


@dataclass(frozen=True)
class MissingNames:
    """What a page without the user's JAX (the site's search) needs to say what `upgrade_match`
    says with the release unknown, by entry: `direct`, the names the newest release lacks
    (removed, or not yet added), read for each prefix of a dotted name; `whole`, the names
    `_verdict` answers only from the whole name (added after the oldest release read);
    `modules`, the same for a name imported as a module (`No module named ...`); `unimported`,
    the modules the newest release has that their parent does not import."""

    direct: dict[str, str]
    whole: dict[str, str]
    modules: dict[str, str]
    unimported: list[str]


def missing_names(history: ApiHistory) -> MissingNames:
    names = set(history.module_names())
    for module in history.module_names():
        names.update(f"{module}.{attribute}" for attribute in history.attribute_names(module))
    unimported = sorted(m for m in history.module_names() if history.unimported_submodule(m, None))
    direct: dict[str, str] = {}
    whole: dict[str, str] = {}
    for name in sorted(names):
        verdict = history.verdict(name, None)
        if verdict is not None and verdict.status in ("removed", "not-yet"):
            direct[name] = entry_for(verdict)
            continue
        verdict = _verdict(history, name, None, False)
        if verdict is not None and name not in unimported:
            whole[name] = entry_for(verdict)
    modules: dict[str, str] = {}
    for name in sorted(history.module_names()):
        verdict = history.verdict(name, None, True)
        if verdict is None or verdict.status not in ("removed", "not-yet"):
            verdict = _verdict(history, name, None, False, True)
        if verdict is not None:
            modules[name] = entry_for(verdict)
    return MissingNames(direct, whole, modules, unimported)


def removed_words(history: ApiHistory) -> dict[str, tuple[list[str], str]]:
    """The history's deprecation words (a removed name's AttributeError repeats them, and need
    not spell the name), each with its names and, when it is one removed name's, its entry."""
    found: dict[str, tuple[list[str], str]] = {}
    for said, named in sorted(history.wordings().items()):
        verdict = _removed(history, named[0]) if len(named) == 1 else None
        found[said] = (named, entry_for(verdict) if verdict is not None else "")
    return found


def is_upgrade_entry(entry: Entry) -> bool:
    return entry.id in UPGRADE_ENTRIES


def worth_resolving(exception: str, message: str, current: Match | None) -> bool:
    """Cheap test first: only messages about a JAX name (or a deprecation warning, which the
    history may know by its words) go to the history."""
    if current is not None and current.entry.id in UPGRADE_ENTRIES:
        return True  # only the history may confirm (or drop) one of ours
    if current is not None and current.entry.curated:
        return False
    return _in_jax_words(exception, message) or name_in(exception, message) is not None


def _in_jax_words(exception: str, message: str) -> bool:
    """A deprecation warning, or the AttributeError JAX raises for a name it has removed: JAX's
    table of deprecations words both, without always spelling the name whole
    (`register_custom_call_target has been removed in JAX v0.6.0; use the JAX FFI instead`)."""
    cls = short_class(exception)
    return (cls in _WARNINGS and "deprecated" in message) or (
        cls == "AttributeError" and "removed" in message
    )


def _warned_name(history: ApiHistory, message: str) -> str | None:
    """The one name whose recorded deprecation (or removal) message the text is."""
    names = history.names_warned_by(message)
    return names[0] if len(names) == 1 else None
