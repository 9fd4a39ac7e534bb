"""Explain a missing or deprecated JAX name from the API history: which release removed it and
what JAX says to use, or which release added it. Pure: a matched message in, a richer match out.

The curated entries (`removed-api`, `removed-module`, `api-not-yet-added`, `deprecated-api`) hold
the general explanation; this module picks the one the history supports and puts the facts in
front of it, and in the match's fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from jaxerr_ls.catalog.model import Catalog, Entry
from jaxerr_ls.catalog.templates import Match, short_class
from jaxerr_ls.upgrades.describe import describe, gone_since, product_of, use_instead
from jaxerr_ls.upgrades.history import ApiHistory, Verdict, normalise
from jaxerr_ls.upgrades.libraries import (
    DOCS,
    PIP_NAMES,
    before_history,
    library_history,
    library_of_name,
)
from jaxerr_ls.upgrades.renames import rename_for

REMOVED_API = "removed-api"
REMOVED_MODULE = "removed-module"
NOT_YET_ADDED = "api-not-yet-added"
DEPRECATED_API = "deprecated-api"
IN_ANOTHER_MODULE = "jax-name-in-another-module"
# A name under `jax._src` or starting with `_`: no history is kept of private names.
PRIVATE_NAME = "jax-private-name-missing"
# `jax.experimental.sparse` used after `import jax` alone: a module its parent does not load.
SUBMODULE_NOT_IMPORTED = "jax-submodule-not-imported"
UPGRADE_ENTRIES = frozenset(
    {
        REMOVED_API,
        REMOVED_MODULE,
        NOT_YET_ADDED,
        DEPRECATED_API,
        IN_ANOTHER_MODULE,
        PRIVATE_NAME,
        SUBMODULE_NOT_IMPORTED,
    }
)

# JAX's names, and those of the libraries whose API history the catalog holds (`libraries.py`).
# JAX's names and those of the libraries whose API history is kept (site/assets/match.js `ROOTS`
# says the same).
_ROOTS = "(?:" + "|".join(("jax", *PIP_NAMES)) + ")"
_NO_ATTRIBUTE = re.compile(
    # A paste may have wrapped the line at any space.
    rf"module\s+'(?P<module>{_ROOTS}(?:\.\w+)*)'\s+has\s+no\s+attribute\s+'(?P<name>\w+)'"
)
_NO_MODULE = re.compile(rf"No module named '(?P<module>{_ROOTS}(?:\.\w+)+)'")
_CANNOT_IMPORT = re.compile(
    rf"cannot\s+import\s+name\s+'(?P<name>\w+)'\s+from\s+'(?P<module>{_ROOTS}(?:\.\w+)*)'"
)
# A library's changed API, said after the name's own facts (the JAX entries' general text is
# about JAX's deprecation policy and `jaxerr-ls check`, which reads JAX's names only).
_LIBRARY_MEANING = """The libraries used with JAX change their public API between releases too:
Flax dropped `flax.optim` for Optax and moved names between `flax.linen` modules, Optax and
Equinox add optimizers, state classes and filters release by release. The catalog records, for
every release of each library read from its wheels, which modules and names each had: a
name the installed release lacks was either removed after the code was written, or the code
needs a newer release than the one installed."""
_LIBRARY_PRIVATE = """`{name}` is private to {who}: a module or name starting with an underscore
(`_src`, `_module`). {who} keeps no history of such names and moves, renames or removes them in
any release. Code that imports them (another library built on {who}, research code pinned to one
{who} release, an import of your own) breaks when the installed {who} is another release than
the one it was written for: the error is in the pairing of that code with this {who}, not in
your use of its public API."""
# JAX's own wording: "jax.tree_map was removed in JAX v0.6.0: use ...", "jnp.trapz is
# deprecated; ...", "jax.random.rbg_key(seed) is deprecated", "pltpu.HOST is deprecated".
_JAX_SAYS = re.compile(
    r"\A(?:The )?(?P<name>(?:jax|jnp|lax|pltpu|pl)(?:\.\w+)+)(?:\(\w*\))?(?: module)?\s+"
    r"(?:was|is|has been|were)\s+(?:removed|deprecated|moved)"
)
# A missing name raises one of three classes, by how the code reaches it (checked under real
# JAX: tests/upgrades/programs): `jax.ops.index_update` -> AttributeError, `from jax.ops import
# index_update` -> ImportError, `import jax.linear_util` -> ModuleNotFoundError. The entry shown
# is of the class printed, with Python's wording for that form.
_ERRORS = {
    "AttributeError": "module '{module}' has no attribute '{name}'",
    "ImportError": "cannot import name '{name}' from '{module}'",
    "ModuleNotFoundError": "No module named '{module}'",
}
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
    warning = short_class(exception) in _WARNINGS
    name = name_in(exception, message) or (_warned_name(history, message) if warning else None)
    if name is None:
        return fallback
    library = library_of_name(name)
    if library is None and short_class(exception) in ("AttributeError", ""):
        unimported = _unimported(name, message, catalog, history, version)
        if unimported is not None:
            return unimported
    if library is not None:
        # The JAX release says nothing of the library's: the library's history alone answers.
        found = library_history(library)
        if found is None:
            return fallback
        history, version = found, None
    said = warning and _JAX_SAYS.match(message.strip()) is not None and "deprecated" in message
    module = _NO_MODULE.search(message) is not None
    verdict = _verdict(history, name, version, warning, module, said)
    if verdict is None and library is not None and not warning:
        earlier = _before_history(exception, name, library, history, catalog)
        if earlier is not None:
            return earlier
    if verdict is None:
        elsewhere = _elsewhere(history, name) if library is None and not warning else []
        if elsewhere:
            return _in_another_module(exception, name, elsewhere, catalog) or fallback
        if fallback is None and not warning and is_private(name):
            return _private(exception, name, catalog, library)
        return fallback
    entry = catalog.get(entry_for(verdict))
    if entry is None:
        return fallback
    # The release we were told has the name when the history alone answered: it did not raise.
    told = version if version and verdict.release == history.release_for(version) else None
    title, first, solutions = _specific(verdict, told)
    shown = _as_printed(
        entry,
        exception,
        title=title,
        meaning=first + "\n\n" + (_LIBRARY_MEANING if library else entry.meaning.strip()),
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


def _elsewhere(history: ApiHistory, name: str) -> list[str]:
    """The modules of that last name JAX's newest release has, when no release had `name`
    itself (`jax.stax` -> `jax.example_libraries.stax`)."""
    if history.facts(name) is not None or "." not in name:
        return []
    last = name.rsplit(".", 1)[1]
    found = []
    for module in history.module_names():
        if module.rsplit(".", 1)[-1] != last or module == name:
            continue
        facts = history.facts(module)
        if facts is not None and facts.spans and not facts.last_release:
            found.append(module)
    return sorted(found, key=lambda m: (m.count("."), m))[:4]


def _in_another_module(
    exception: str, name: str, elsewhere: list[str], catalog: Catalog
) -> Match | None:
    entry = catalog.get(IN_ANOTHER_MODULE)
    if entry is None:
        return None
    where = ", ".join(f"`{m}`" for m in elsewhere)
    first = (
        f"No JAX release had `{name}`; JAX's modules of that name are {where}."
        if len(elsewhere) > 1
        else f"No JAX release had `{name}`; JAX has it as {where}."
    )
    shown = _as_printed(
        entry,
        exception,
        title=f"{name} is not a JAX module: use {elsewhere[0]}"
        + (f" (or {', '.join(elsewhere[1:])})" if len(elsewhere) > 1 else ""),
        meaning=first + "\n\n" + entry.meaning.strip(),
        solutions=(f"Import it from {where}.", *entry.solutions),
    )
    fields = {"name": name, "status": "elsewhere", "elsewhere": ", ".join(elsewhere)}
    return Match(shown, fields, 100)


def _unimported(
    name: str, message: str, catalog: Catalog, history: ApiHistory, version: str | None
) -> Match | None:
    """`module 'jax.experimental' has no attribute 'sparse'` where the release has the module:
    `import jax` does not load it; importing it does."""
    if _NO_ATTRIBUTE.search(message) is None:
        return None
    release = history.unimported_submodule(name, version)
    entry = catalog.get(SUBMODULE_NOT_IMPORTED)
    if release is None or entry is None:
        return None
    parent, _, child = normalise(name).rpartition(".")
    title = f"{parent}.{child} is a module of its own: `import {parent}.{child}` loads it"
    fields = {"name": f"{parent}.{child}", "module": parent, "attribute": child}
    return Match(
        replace(entry, title=title), {**fields, "status": "not-imported", "release": release}, 100
    )


def is_private(name: str) -> bool:
    """`jax._src.numpy.lax_numpy._ScalarMeta`, `jax._src`: a part after the root is private."""
    return any(part.startswith("_") for part in name.split(".")[1:])


def _private(
    exception: str, name: str, catalog: Catalog, library: str | None = None
) -> Match | None:
    entry = catalog.get(PRIVATE_NAME)
    if entry is None:
        return None
    who = product_of(name)
    title = f"{name} is private to {who}, and this release lacks it"
    if library is None:
        return Match(
            _as_printed(entry, exception, title=title), {"name": name, "status": "private"}, 100
        )
    # A library's private module (`equinox._module`, `optax._src.transform`): what JAX's entry
    # says of `jax._src`, said of that library and of the packages built on it.
    pip = PIP_NAMES.get(library, library)
    shown = _as_printed(
        entry,
        exception,
        title=title,
        meaning=_LIBRARY_PRIVATE.format(who=who, name=name),
        solutions=(
            f"Check which {who} is installed: `pip show {pip}`; then find the package whose "
            f"code imports `{name}` (the traceback's last frame outside {who}).",
            f"Install the {who} release that package was written for (its requirements name "
            f"it: `pip install '{pip}==X.Y.Z'`), or upgrade that package to a release made "
            f"for your {who}.",
            f"In your own code, use {who}'s public API instead: its private modules change "
            "in any release.",
        ),
        library=library,
        # JAX's triggers, example and fixes are about `jax._src`.
        triggers=(),
        situations=(),
        example=None,
        fixes=(),
        docs=DOCS.get(library, ""),
        related=(),
    )
    return Match(shown, {"name": name, "status": "private"}, 100)


def _before_history(
    exception: str, name: str, library: str, history: ApiHistory, catalog: Catalog
) -> Match | None:
    """A name every release the history reads has, missing all the same, from a library whose
    history starts after its first release (Orbax before 0.1.4 was the `orbax` package): the
    installed one is older than the history, or not the library at all."""
    found = before_history(library)
    facts = history.facts(name)
    entry = catalog.get(NOT_YET_ADDED)
    # (A module missing from its parent was most often not imported: `import orbax` alone.)
    if found is None or entry is None or facts is None or facts.last_release or facts.is_module:
        return None
    if [first for first, _ in facts.spans] != [history.oldest]:
        return None
    earlier, first = found
    who = product_of(name)
    pip = PIP_NAMES.get(library, library)
    shown = _as_printed(
        entry,
        exception,
        title=f"{name} is in every {who} release since {first}; this {who} is older",
        meaning=(
            f"{name} is in every release of `{pip}` read, {first} to {history.newest}. "
            f"Before {first}, {who} was published as the `{earlier}` package, whose modules "
            f"differ: an environment that has `{earlier}` (or `{pip}` older than {first}) "
            f"lacks {name}. Otherwise something else answers to the module's name: a file or "
            f"folder of your own named like it, or a half-finished install."
            "\n\n" + _LIBRARY_MEANING
        ),
        solutions=(
            f"Check what is installed: `pip show {pip} {earlier}`.",
            f"Upgrade to a current {who}: `pip uninstall {earlier}` if it is there, then "
            f"`pip install -U {pip}`.",
            f"If a current `{pip}` is installed, print `{name.rsplit('.', 1)[0]}.__file__` to "
            "see which module Python imported.",
        ),
        library=library,
        fixes=(),
        docs=DOCS.get(library, ""),
    )
    return Match(shown, {"name": name, "status": "not-yet", "added_in": first}, 100)


def _as_printed(entry: Entry, exception: str, **changes: Any) -> Entry:
    """The entry shown with the class printed and Python's wording for it (a missing name is an
    AttributeError, ImportError or ModuleNotFoundError by how the code reached it)."""
    printed = short_class(exception)
    form = _ERRORS.get(printed)
    return replace(
        entry,
        exception=printed if form else entry.exception,
        message=form or entry.message,
        **changes,
    )


def is_upgrade_entry(entry: Entry) -> bool:
    return entry.id in UPGRADE_ENTRIES


def worth_resolving(exception: str, message: str, current: Match | None) -> bool:
    """Cheap test first: only messages about a JAX name (or a deprecation warning, which the
    history may know by its words) go to the history."""
    if current is not None and current.entry.id in UPGRADE_ENTRIES:
        return True  # only the history may confirm (or drop) one of ours
    if current is not None and current.entry.curated:
        return False
    if short_class(exception) in _WARNINGS and "deprecated" in message:
        return True
    return name_in(exception, message) is not None


def _warned_name(history: ApiHistory, message: str) -> str | None:
    """The one name whose recorded deprecation message the warning's text is."""
    names = history.names_warned_by(message)
    return names[0] if len(names) == 1 else None
