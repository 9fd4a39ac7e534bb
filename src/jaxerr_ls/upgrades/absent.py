"""A name no release of the history has: JAX's under another module, a submodule its parent
does not import, a private name (no history is kept of those), or a library's name older than its
history. Pure: a name in, a match (or None) out."""

from __future__ import annotations

from dataclasses import replace

from jaxerr_ls.catalog.model import Catalog
from jaxerr_ls.catalog.templates import Match
from jaxerr_ls.upgrades.describe import product_of
from jaxerr_ls.upgrades.entries import (
    IN_ANOTHER_MODULE,
    LIBRARY_MEANING,
    NOT_YET_ADDED,
    PRIVATE_NAME,
    SUBMODULE_NOT_IMPORTED,
    as_printed,
)
from jaxerr_ls.upgrades.history import ApiHistory, normalise
from jaxerr_ls.upgrades.libraries import DOCS, PIP_NAMES, before_history

_LIBRARY_PRIVATE = """`{name}` is private to {who}: a module or name starting with an underscore
(`_src`, `_module`). {who} keeps no history of such names and moves, renames or removes them in
any release. Code that imports them (another library built on {who}, research code pinned to one
{who} release, an import of your own) breaks when the installed {who} is another release than
the one it was written for: the error is in the pairing of that code with this {who}, not in
your use of its public API."""


def elsewhere(history: ApiHistory, name: str) -> list[str]:
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


def in_another_module(
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
    shown = as_printed(
        entry,
        exception,
        title=f"{name} is not a JAX module: use {elsewhere[0]}"
        + (f" (or {', '.join(elsewhere[1:])})" if len(elsewhere) > 1 else ""),
        meaning=first + "\n\n" + entry.meaning.strip(),
        solutions=(f"Import it from {where}.", *entry.solutions),
    )
    fields = {"name": name, "status": "elsewhere", "elsewhere": ", ".join(elsewhere)}
    return Match(shown, fields, 100)


def unimported(
    name: str, catalog: Catalog, history: ApiHistory, version: str | None
) -> Match | None:
    """`module 'jax.experimental' has no attribute 'sparse'` where the release has the module:
    `import jax` does not load it; importing it does."""
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


def private(
    exception: str, name: str, catalog: Catalog, library: str | None = None
) -> Match | None:
    entry = catalog.get(PRIVATE_NAME)
    if entry is None:
        return None
    who = product_of(name)
    title = f"{name} is private to {who}, and this release lacks it"
    if library is None:
        return Match(
            as_printed(entry, exception, title=title), {"name": name, "status": "private"}, 100
        )
    # A library's private module (`equinox._module`, `optax._src.transform`): what JAX's entry
    # says of `jax._src`, said of that library and of the packages built on it.
    pip = PIP_NAMES.get(library, library)
    shown = as_printed(
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


def before_history_match(
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
    shown = as_printed(
        entry,
        exception,
        title=f"{name} is in every {who} release since {first}; this {who} is older",
        meaning=(
            f"{name} is in every release of `{pip}` read, {first} to {history.newest}. "
            f"Before {first}, {who} was published as the `{earlier}` package, whose modules "
            f"differ: an environment that has `{earlier}` (or `{pip}` older than {first}) "
            f"lacks {name}. Otherwise something else answers to the module's name: a file or "
            f"folder of your own named like it, or a half-finished install."
            "\n\n" + LIBRARY_MEANING
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
