"""Text -> explained tracebacks: parse, match against the catalog, locate in the workspace.

The result is what `jaxerr-ls explain --json` prints and what the server turns into diagnostics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from jaxerr_ls.catalog import Match, Matcher
from jaxerr_ls.catalog.classes import match_by_class, printed_class_wins
from jaxerr_ls.catalog.imports import match_library_import
from jaxerr_ls.catalog.loglines import logged_severity
from jaxerr_ls.catalog.loose import match_any_class, unwrapped
from jaxerr_ls.catalog.python_version import match_python_too_old
from jaxerr_ls.catalog.shadow import match_shadowed
from jaxerr_ls.catalog.sites import (
    match_cut_message,
    match_literal_at_site,
    match_python_site,
    match_raise_site,
    match_worded_at_site,
)
from jaxerr_ls.catalog.templates import same_class, short_class
from jaxerr_ls.explain.model import Explanation
from jaxerr_ls.tracebacks import Traceback, parse_tracebacks
from jaxerr_ls.tracebacks.fragments import summary_errors
from jaxerr_ls.tracebacks.ipynb import ParsedNotebook
from jaxerr_ls.tracebacks.jax import is_wrapper
from jaxerr_ls.tracebacks.locate import (
    LineReader,
    Workspace,
    locate,
    read_lines,
)
from jaxerr_ls.tracebacks.normalize import clean_lines
from jaxerr_ls.tracebacks.parse import paste_readings, paste_tracebacks


def match_exception(
    exception: str,
    message: str,
    matcher: Matcher,
    jax_version: str | None = None,
    frame_paths: Sequence[str] = (),
) -> Match | None:
    """The catalog's match, refined by the API history when the message is about a JAX name
    the user's release lacks or deprecates (see `jaxerr_ls.upgrades`). The release is the one
    whose files the frames run in, else `jax_version`, else the installed one."""
    return _with_history(
        exception, message, matcher.match(exception, message), matcher, jax_version, frame_paths
    )


def _with_history(
    exception: str,
    message: str,
    match: Match | None,
    matcher: Matcher,
    jax_version: str | None,
    frame_paths: Sequence[str],
) -> Match | None:
    from jaxerr_ls.upgrades.resolve import upgrade_match, worth_resolving

    if not worth_resolving(exception, message, match):
        return match
    from jaxerr_ls.catalog.versions import installed_jax_version
    from jaxerr_ls.upgrades.history import load_history
    from jaxerr_ls.upgrades.installed import jax_version_of

    version = jax_version_of(frame_paths) or jax_version or installed_jax_version()
    return upgrade_match(exception, message, matcher.catalog, load_history(), version, match)


def _keyword(traceback: Traceback, matcher: Matcher, jax_version: str | None) -> Match | None:
    """A JAX function called with a keyword the release lacks (`upgrades.keywords`)."""
    if "unexpected keyword argument" not in traceback.message:
        return None
    from jaxerr_ls.catalog.versions import installed_jax_version
    from jaxerr_ls.upgrades.installed import jax_version_of
    from jaxerr_ls.upgrades.keywords import keyword_match

    paths = [frame.path for frame in traceback.frames]
    version = jax_version_of(paths) or jax_version or installed_jax_version()
    return keyword_match(
        traceback.exception, traceback.message, traceback.frames, matcher.catalog, version
    )


def _cut_name(traceback: Traceback, matcher: Matcher, jax_version: str | None) -> Match | None:
    """A missing name's message cut inside the name, completed (`upgrades.cut_names`)."""
    message = traceback.message.rstrip()
    from jaxerr_ls.upgrades.cut_names import (
        complete_cut_name,
        complete_from_source,
        cut_before_name,
        cut_note,
    )

    # Cheap tests first (the API history loads only after them): a missing name whose quote
    # the cut left open, or a missing attribute's message cut before its name.
    attribute = bool(traceback.frames) and short_class(traceback.exception) == "AttributeError"
    before = attribute and cut_before_name(message)
    if not before and (
        message.endswith("'") or not ("has no attribute '" in message or "import name '" in message)
    ):
        return None
    from jaxerr_ls.upgrades.history import load_history

    source = traceback.frames[-1].source if traceback.frames else ""
    history = load_history()
    completed = (
        complete_from_source(message, history, source)
        if before
        else complete_cut_name(traceback.message, history, source)
    )
    if completed is None:
        return None
    paths = [frame.path for frame in traceback.frames]
    found = match_exception(traceback.exception, completed.message, matcher, jax_version, paths)
    if found is None:
        return None
    meaning = found.entry.meaning.rstrip() + "\n\n" + cut_note(completed)
    return replace(found, entry=replace(found.entry, meaning=meaning), cut=True)


def explain_traceback(
    traceback: Traceback,
    matcher: Matcher,
    workspace: Workspace | None,
    reader: LineReader = read_lines,
    jax_version: str | None = None,
) -> Explanation:
    causes = tuple(
        explain_traceback(cause, matcher, workspace, reader, jax_version)
        for cause in traceback.causes
    )
    return Explanation(
        traceback=traceback,
        match=_filled(match_traceback(traceback, matcher, jax_version)),
        location=locate(traceback, workspace, reader),
        causes=causes,
    )


def _filled(match: Match | None) -> Match | None:
    from jaxerr_ls.catalog.templates import with_fields

    return with_fields(match) if match is not None else None


def match_traceback(
    traceback: Traceback, matcher: Matcher, jax_version: str | None = None
) -> Match | None:
    """By the message (of any class when none was copied; refined by the API history), else by
    where JAX raised it, else by a JAX-specific class alone (never a generic one)."""
    if not traceback.exception:
        # A removed name's entry only when the API history confirms it, as with a class.
        found = match_any_class(matcher, traceback.message)
        return _with_history("", traceback.message, found, matcher, jax_version, ())
    # Code running in a file of the user's named like the library it imports (`optax.py`): the
    # cause whatever the library's releases say of the name.
    found = match_shadowed(matcher, traceback.exception, traceback.message, traceback.frames)
    if found is not None:
        return found
    found = _cut_name(traceback, matcher, jax_version) or _keyword(traceback, matcher, jax_version)
    paths = [frame.path for frame in traceback.frames]
    found = found or match_exception(
        traceback.exception, traceback.message, matcher, jax_version, paths
    )
    if found is not None:
        return _by_message(matcher, traceback.exception, traceback.message, found)
    # JAX's unfiltered copy of the same exception (remove_frames) holds the frames it removed.
    for frames in (traceback.frames, *(c.frames for c in traceback.causes if is_wrapper(c))):
        found = (
            match_cut_message(matcher, traceback.exception, traceback.message, frames)
            or match_raise_site(matcher, traceback.exception, frames)
            or match_literal_at_site(matcher, traceback.exception, traceback.message, frames)
            or match_worded_at_site(matcher, traceback.exception, traceback.message, frames)
            or match_python_site(matcher, traceback.exception, traceback.message, frames)
            or match_library_import(matcher, traceback.exception, traceback.message, frames)
            or match_python_too_old(matcher, traceback.exception, traceback.message, frames)
        )
        if found is not None:
            return found
    # A message hard-wrapped where it was copied from (a pull request's description, jax#2508),
    # read again without those breaks: after the sites, which read the message as printed.
    message = unwrapped(traceback.message)
    if message != traceback.message:
        found = match_exception(traceback.exception, message, matcher, jax_version, paths)
        if found is not None:
            return _by_message(matcher, traceback.exception, message, found)
    return match_by_class(matcher, traceback.exception, traceback.message)


def _by_message(matcher: Matcher, exception: str, message: str, found: Match) -> Match:
    """A match of the message, as shown: of the class printed when one of its wordings is,
    with the releases before the main index that raised it."""
    return _with_older_releases(matcher, printed_class_wins(matcher, exception, message, found))


def _with_older_releases(matcher: Matcher, match: Match) -> Match:
    """The entry with the releases before the main index that raised it (`catalog/older.py`),
    so an explanation states the whole range."""
    from dataclasses import replace

    from jaxerr_ls.catalog.model import LIBRARIES
    from jaxerr_ls.catalog.older import extend_entry

    if match.entry.library in LIBRARIES:
        return match  # a library's error (or name): JAX's older releases say nothing of it
    return replace(match, entry=extend_entry(matcher.catalog, match.entry))


def explain_text(
    text: str,
    matcher: Matcher,
    root: Path | None = None,
    reader: LineReader = read_lines,
    workspace: Workspace | None = None,
    jax_version: str | None = None,
) -> list[Explanation]:
    """Every traceback in `text`, explained; short of a traceback, what the pasted text says (a
    message without its class only when it matches one entry unambiguously)."""
    if workspace is None and root is not None:
        workspace = Workspace(root)
    found = parse_tracebacks(text) or paste_tracebacks(text)
    if found:
        return [explain_traceback(tb, matcher, workspace, reader, jax_version) for tb in found]
    return explain_paste(text, matcher, workspace, reader, jax_version)


def explain_paste(
    text: str,
    matcher: Matcher,
    workspace: Workspace | None = None,
    reader: LineReader = read_lines,
    jax_version: str | None = None,
) -> list[Explanation]:
    """Text short of a traceback: the first reading that reaches an entry; else the exception
    line as read, unmatched; a message without its class is only reported when it matched.

    A class-less reading that matched an entry of the class an exception line of the paste
    prints is reported with that line's class and message: the text said both. pytest's short
    summary of several failed tests is each of its distinct errors."""
    failures = summary_errors(clean_lines(text))
    if len(failures) > 1:
        return [explain_traceback(tb, matcher, workspace, reader, jax_version) for tb in failures]
    readings = [
        explain_traceback(tb, matcher, workspace, reader, jax_version)
        for tb in paste_readings(text)
    ]
    # A warning read with an entry of another class (its line runs on into the shell's
    # `Illegal instruction`, OpenTrack#3) gives way to a reading that is sure: a warning is not
    # what stopped the program.
    if any(r.match is not None and r.match.score >= 100 for r in readings):
        readings = [r for r in readings if not _unsure_warning(r)]
    # Likewise a logged warning read from the top of the paste (`Platform 'METAL' is
    # experimental ...`, jax#20401) gives way to an exception line the paste prints that reached
    # an entry.
    if any(r.match is not None and r.traceback.exception for r in readings):
        readings = [r for r in readings if not _logged_warning(r)]
    with_class = [reading for reading in readings if reading.traceback.exception]
    for reading in readings:
        match = reading.match
        if match is None:
            continue
        if not reading.traceback.exception:
            # An exception line of the paste read with its class reached the same entry: that
            # reading, which says the class and was refined by it (the API history's form).
            same = [
                other
                for other in with_class
                if other.match is not None and other.match.entry.id == match.entry.id
            ]
            if same:
                return [same[0]]
            # The class of an exception line the paste prints, when the entry is of that class
            # (another class there is an inner error the message quotes: "The error was: ...").
            printed = [
                other
                for other in with_class
                if same_class(
                    short_class(other.traceback.exception), short_class(match.entry.exception)
                )
            ]
            if printed:
                # Unless that line, read with its class, reached a curated entry as surely
                # where the class-less reading reached a generated one: the curated entry says
                # more of the same error (ctd's `Non-hashable static arguments`, under the
                # generated XLA wording the whole text also matched).
                own = printed[0].match
                if (
                    own is not None
                    and own.score >= match.score
                    and own.entry.curated
                    and not match.entry.curated
                ):
                    return [printed[0]]
                return [replace(printed[0], match=match)]
        return [reading]
    return with_class[:1]


def _logged_warning(reading: Explanation) -> bool:
    match = reading.match
    return (
        match is not None
        and not reading.traceback.exception
        and logged_severity(match.entry) in ("WARNING", "INFO")
    )


def _unsure_warning(reading: Explanation) -> bool:
    match = reading.match
    cls = short_class(reading.traceback.exception)
    return match is not None and match.score < 100 and cls.endswith("Warning")


def explain_notebook(
    notebook: ParsedNotebook,
    matcher: Matcher,
    root: Path | None = None,
) -> list[Explanation]:
    """Every error output saved in the notebook, explained; its cells are searched first, then
    the root's other notebooks and files."""
    workspace = Workspace(root or Path(notebook.notebook.path).parent, (notebook.notebook,))
    return [
        explanation
        for error in notebook.errors
        for explanation in explain_text(error.text, matcher, workspace=workspace)
    ]
