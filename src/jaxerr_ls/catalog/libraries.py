"""The libraries used with JAX (Flax, Equinox, Optax, Orbax, Chex): their generated indexes.

`catalog/libraries/<name>.json.gz` is written by `jaxerr-ls catalog extract --library <name>` in
the multi-release format of JAX's index; its `versions` are the library's own releases. Loaded,
each entry is tagged with its `library` and those releases go to `library_versions`, so that
everything reading `versions` as JAX releases (the user's release preferred in matching, "raised
by JAX 0.4.26-0.10.2" in explanations) is not misled.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from jaxerr_ls.catalog.model import LIBRARIES, Entry, Wording

SUFFIX = ".json.gz"


def library_files(base: Path) -> list[Path]:
    """The shipped library indexes under a catalog directory, by library name."""
    folder = base / "libraries"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.name.endswith(SUFFIX) and p.is_file())


def library_name(path: Path) -> str | None:
    """`flax.json.gz` -> "flax"; None for a file that is no known library's."""
    name = path.name[: -len(SUFFIX)]
    return name if name in LIBRARIES else None


# Flax appends its error page to every `flax.errors` message; users often paste the message
# without it (cut at the line's end, or an older release that did not add it).
_DOCS_LINK = re.compile(r" \(https?://[^\s()]+\)$")


def _without_link(entry: Entry) -> tuple[Wording, ...]:
    texts = [entry.message, *(w.message for w in entry.wordings)]
    known = set(texts)
    extra = []
    for text in texts:
        bare = _DOCS_LINK.sub("", text)
        if bare != text and bare not in known:
            known.add(bare)
            extra.append(Wording(bare))
    return tuple(extra)


def tag(entries: Iterable[Entry], library: str) -> list[Entry]:
    """A library's entries as the catalog holds them: tagged, its releases in `library_versions`
    (a library's raise sites keep its release in `Site.jax`: the release the line is of)."""
    return [
        replace(
            entry,
            library=library,
            library_versions=entry.versions,
            versions=(),
            wordings=(*(replace(w, versions=()) for w in entry.wordings), *_without_link(entry)),
        )
        for entry in entries
    ]


# Pinned source of a library's raise site, by the top package of its file (the line belongs to
# the release in `Site.jax`). Orbax's tags do not follow its package versions: no link.
SOURCES = {
    "flax": "https://github.com/google/flax/blob/v{version}/{file}#L{line}",
    "equinox": "https://github.com/patrick-kidger/equinox/blob/v{version}/{file}#L{line}",
    "optax": "https://github.com/google-deepmind/optax/blob/v{version}/{file}#L{line}",
    "chex": "https://github.com/google-deepmind/chex/blob/v{version}/{file}#L{line}",
}
_PACKAGES = {"orbax": "orbax"}  # top package -> library, where the names differ


def library_of_file(file: str) -> str | None:
    """`flax/core/scope.py` -> "flax"; None for JAX's own files and unknown ones."""
    top = file.split("/", 1)[0]
    name = _PACKAGES.get(top, top)
    return name if name in LIBRARIES else None


def raiser(entry: Entry) -> str:
    """Who raises it, in prose: "JAX", "Flax", "Orbax", ..."""
    return LIBRARIES.get(entry.library, "JAX")


def release_label(entry: Entry) -> str:
    """ "Flax 0.6.11-0.12.8" (the releases catalogued), "" for JAX's own entries."""
    if entry.library not in LIBRARIES:
        return ""
    name = LIBRARIES[entry.library]
    if not entry.library_versions:
        return name
    first, last = entry.library_versions[0], entry.library_versions[-1]
    return f"{name} {first}" if first == last else f"{name} {first}–{last}"
