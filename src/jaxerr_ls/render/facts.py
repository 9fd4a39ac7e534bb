"""When and where JAX raises an entry, in words: the guarding condition, the function, a source
link pinned to the release tag, the APIs by directness and the releases (pure text helpers)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path

from jaxerr_ls.catalog.model import Catalog, Entry, Site, Wording, depth_of
from jaxerr_ls.catalog.versions import version_key

SOURCE_URL = "https://github.com/jax-ml/jax/blob/jax-v{version}/{file}#L{line}"
_DEPTH_WORDS = ("raises it in its own body", "one call away", "two calls away", "three calls away")


def source_link(site: Site) -> str:
    """JAX's (or a library's) source at the raise, pinned to the release the line number belongs
    to; "" when there is no pinned source to link (Orbax)."""
    from jaxerr_ls.catalog.libraries import SOURCES, library_of_file
    from jaxerr_ls.catalog.xla import commit_link

    if commit_link(site):  # XLA's or jaxlib's C++, pinned to a commit
        return commit_link(site)
    library = library_of_file(site.file)
    if library is not None:
        url = SOURCES.get(library, "")
        return url.format(version=site.jax, file=site.file, line=site.line) if url else ""
    return SOURCE_URL.format(version=site.jax, file=site.file, line=site.line)


def when_raised(site: Site, verb: str = "raised") -> str:
    """`raised when \\`initial.ndim != 0\\` in \\`_reduction\\`` (markdown-ready backticks);
    `verb`: what the site does (`Entry.verb`: `warned when ...`, `logged in ...`)."""
    function = site.function.replace(".<locals>.", ".")
    if site.condition:
        return f"{verb} when `{site.condition}` in `{function}`"
    return f"{verb} in `{function}`"


def depth_words(depth: int) -> str:
    return _DEPTH_WORDS[depth] if depth < len(_DEPTH_WORDS) else f"{depth} calls away"


def apis_by_directness(entry: Entry) -> list[tuple[int, list[str]]]:
    """[(depth, APIs)] most direct first; curated APIs (no depth recorded) count as direct."""
    groups: dict[int, list[str]] = {}
    for api in entry.apis:
        groups.setdefault(depth_of(entry, api), []).append(api)
    return sorted(groups.items())


_known: dict[int, tuple[str, ...]] = {}


def catalog_releases(catalog: Catalog) -> tuple[str, ...]:
    """Every release some entry names, oldest first (computed once per catalog)."""
    key = id(catalog.entries)
    found = _known.get(key)
    if found is None:
        versions = {v for entry in catalog.entries for v in entry.versions}
        found = tuple(sorted(versions, key=version_key))
        _known.clear()
        _known[key] = found
    return found


def release_ranges(versions: Iterable[str], known: Sequence[str] = ()) -> str:
    """`0.4.26–0.6.2, 0.8.0` : runs of consecutive releases (by `known`) joined with a dash."""
    ordered = sorted(set(versions), key=version_key)
    if not ordered:
        return ""
    position = {v: i for i, v in enumerate(known)}
    runs: list[list[str]] = [[ordered[0]]]
    for version in ordered[1:]:
        before, here = position.get(runs[-1][-1]), position.get(version)
        if before is not None and here is not None and here == before + 1:
            runs[-1].append(version)
        else:
            runs.append([version])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)


def release_span(versions: Iterable[str]) -> str:
    """`0.4.36–0.10.2 (24 releases)`: the oldest and newest, for text without the release list."""
    ordered = sorted(set(versions), key=version_key)
    if len(ordered) <= 1:
        return "".join(ordered)
    return f"{ordered[0]}–{ordered[-1]} ({len(ordered)} releases)"


def wording_for(entry: Entry, release: str | None) -> Wording | None:
    """The older wording `release` prints, when it differs from the entry's message."""
    if not release:
        return None
    return next((w for w in entry.wordings if release in w.versions), None)


def message_for(entry: Entry, release: str | None) -> str:
    found = wording_for(entry, release)
    return found.message if found is not None else entry.message


def installed_lines(site: Site, context: int = 2) -> list[str] | None:
    """The raise site's lines from the installed JAX, read now (never stored), when the installed
    release is the one the line number belongs to."""
    if not site.file.startswith("jax/"):
        return None  # a library's site: the installed JAX does not hold it
    try:
        distribution = metadata.distribution("jax")
    except metadata.PackageNotFoundError:
        return None
    if distribution.version != site.jax:
        return None
    path = Path(str(distribution.locate_file(site.file)))
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    start, end = max(site.line - 1 - context, 0), min(site.line + context, len(lines))
    if not start < end:
        return None
    return [
        f"{n:6d}{'>' if n == site.line else ' '} {lines[n - 1]}" for n in range(start + 1, end + 1)
    ]
