"""Identifying an error by its class alone, when no message matches.

A message cut short, reworded by a release we lack, or saying little still comes with its class.
A class JAX (or a library used with JAX) defines for one error names that error; a class shared
by a family of errors (`ConcretizationTypeError`, `XlaRuntimeError`) names the family, shown by
its most common curated entry. A generic class (`TypeError`, `ValueError`, `RuntimeError`, ...)
says nothing by itself and never identifies anything; neither does a class of another framework.

The match says `by="class"` and scores below every message match, so explanations can say in
words how little the text told.
"""

from __future__ import annotations

import builtins
import weakref

from jaxerr_ls.catalog.match import Matcher
from jaxerr_ls.catalog.model import WRAPPER_NOTE, Entry
from jaxerr_ls.catalog.templates import Match, short_class
from jaxerr_ls.catalog.xla import STATUS_CODES, STATUS_PREFIX, family_status

CLASS_SCORE = 50
# Python's own exception classes: generic, whatever JAX raises with them.
_GENERIC = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
) | frozenset({"Error", "SkipTest"})
# JAX's wrappers around the real exception: never the error itself; copied without it, the entry
# saying so. `JaxStackTraceBeforeTransformation` heads the frames where a transformed operation
# was written; the error follows it.
_WRAPPERS = frozenset(
    {
        "SimplifiedTraceback",
        "UnfilteredStackTrace",
        "FilteredStackTrace",
        "JaxStackTraceBeforeTransformation",
    }
)
# The class was renamed between releases: one class here.
# Equinox 0.11.4 and before raised `equinox._errors.EqxRuntimeError` where later releases raise
# `EquinoxRuntimeError` (read in both wheels' `equinox/_errors.py` and `_jit.py`).
_RENAMED = {"JaxRuntimeError": "XlaRuntimeError", "EqxRuntimeError": "EquinoxRuntimeError"}
# Modules whose classes a printed, dotted class may come from.
_JAX_STACK = frozenset({"jax", "jaxlib", "flax", "equinox", "optax", "orbax", "chex", "haiku"})
# XLA's Python extension, wherever it was built into (`google3.third_party.tensorflow.compiler.xla
# .python.xla_extension.XlaRuntimeError` from Google's own builds, jax#15398).
_XLA_MODULES = frozenset({"xla_extension", "xla_client"})
# Classes that carried XLA's statuses before `XlaRuntimeError` existed (jaxlib 0.1-0.3 raised
# `RuntimeError: INTERNAL: ...`, or `RuntimeError: Internal: ...`, with the same texts).
_STATUS_CARRIERS = frozenset({"RuntimeError"})
_INDEXES: weakref.WeakKeyDictionary[Matcher, dict[str, list[Entry]]] = weakref.WeakKeyDictionary()


# Modules defining a class of a renamed class's name: checkify's own `JaxRuntimeError` (a
# `ValueError` its `err.throw()` raises) is not XLA's.
_OWN_NAMES = ("jax._src.checkify.",)


def canonical_class(name: str) -> str:
    short = short_class(name)
    if name.strip().startswith(_OWN_NAMES):
        return short
    return _RENAMED.get(short, short)


def is_specific(exception: str) -> bool:
    """Whether the class printed can name an error by itself: not Python's, not a wrapper, and
    (when printed with its module) from JAX or a library used with it."""
    if not exception or " " in exception.strip():
        return False
    short = canonical_class(exception)
    if short in _GENERIC or short in _WRAPPERS or not short[:1].isupper():
        return False
    if "." in exception.strip():
        modules = exception.strip().split(".")[:-1]
        return modules[0] in _JAX_STACK or not _XLA_MODULES.isdisjoint(modules)
    return True


def _index(matcher: Matcher) -> dict[str, list[Entry]]:
    index = _INDEXES.get(matcher)
    if index is None:
        index = {}
        for entry in matcher.catalog.entries:
            classes = {canonical_class(entry.exception)}
            classes.update(canonical_class(w.exception) for w in entry.wordings if w.exception)
            for cls in classes:
                index.setdefault(cls, []).append(entry)
        _INDEXES[matcher] = index
    return index


def _status(text: str) -> str:
    """The XLA status heading a message (`INTERNAL`; older releases' `Internal` too), or ""."""
    stripped = text.lstrip()
    found = STATUS_PREFIX.match(stripped)
    if found is None:
        return ""
    code = stripped[: found.end()].rstrip().rstrip(":").upper().replace(" ", "_")
    return code if code in STATUS_CODES else ""


def status_family(entry: Entry) -> str | None:
    """The status an entry is written for as a whole (`catalog.xla.family_status`), or None."""
    return family_status(entry.message)


def _is_status_family(entry: Entry, status: str) -> bool:
    """An entry for every error of an XLA status: its text is the status and a placeholder."""
    return status_family(entry) == status


def match_by_class(matcher: Matcher, exception: str, message: str) -> Match | None:
    """The entry (or the family's most common curated entry) a JAX-specific class names, or None
    when the class is generic, unknown to the catalog, or shared by errors the text cannot tell
    apart."""
    status = _status(message)
    cls = canonical_class(exception)
    if cls in _WRAPPERS and not message.strip():
        # A wrapper's header copied without its message (where the error is): the entry that
        # says so, and where to find the error.
        note = matcher.catalog.get(WRAPPER_NOTE)
        return Match(note, {}, CLASS_SCORE, by="class") if note is not None else None
    if status and cls in _STATUS_CARRIERS:
        cls = "XlaRuntimeError"
    elif not is_specific(exception):
        return None
    candidates = _index(matcher).get(cls, [])
    if not candidates:
        # A class only releases before the main index raised (Pallas's `TritonLoweringException`
        # of JAX 0.4.20): the older releases' entries (loaded only now).
        older = matcher.older_matcher()
        candidates = _index(older).get(cls, []) if older else []
    if status or cls == "XlaRuntimeError":
        # XLA's runtime errors share one class and are told apart by their status and text: the
        # class (and status) alone names only an entry written for the whole status.
        candidates = [e for e in candidates if _is_status_family(e, status)]
    curated = [e for e in candidates if e.curated]
    if curated:
        chosen = min(curated, key=lambda e: (-e.frequency, e.id))
    elif len(candidates) == 1:
        chosen = candidates[0]
    else:
        return None
    return Match(chosen, {}, CLASS_SCORE, by="class")


def printed_class_wins(matcher: Matcher, exception: str, message: str, found: Match) -> Match:
    """A message match of another class than the JAX-specific class printed (a wording some
    release raised under a generic class, a shared text) yields to what that class names: the
    class is the surer word of the two."""
    classes = {canonical_class(found.entry.exception)}
    classes.update(canonical_class(w.exception) for w in found.entry.wordings if w.exception)
    if canonical_class(exception) in classes or not is_specific(exception):
        return found
    named = match_by_class(matcher, exception, message)
    # A status's family says less than the entry the words matched (a callback's Python error
    # carried by `XlaRuntimeError: INTERNAL: ...`).
    if named is None or status_family(named.entry) is not None:
        return found
    return named


def identified_words(
    match: Match, exception: str = "", short: bool = False, message: str | None = None
) -> str:
    """How the entry was found, in words; "" when by its message (the ordinary case). An empty
    `message` is a text that stops before it (None: not known)."""
    if match.by == "class" and message is not None and not message.strip():
        cls = short_class(exception or match.entry.exception)
        if short:
            return f"Identified by its class alone ({cls}); the text stops before the message."
        return (
            f"Identified by its class alone ({cls}): the text stops before the error's message, "
            "so this is the error that class names (or its family's most common case)."
        )
    if match.by == "class":
        cls = short_class(exception or match.entry.exception)
        status = status_family(match.entry)
        if status:
            if short:
                return f"Identified by its class and status ({cls}, {status}) alone."
            return (
                f"Identified by its class and status alone ({cls}, {status}): the text after the "
                "status matched none of the wordings we know, so this explains what the status "
                "means and what to check."
            )
        if short:
            return f"Identified by its class alone ({cls}); the message matched no known wording."
        return (
            f"Identified by its class alone ({cls}): the message matched none of the wordings "
            "we know, so this is the error that class names (or its family's most common case)."
        )
    if match.by == "raise_site" and match.where:
        if message is not None and message.strip():
            # Python's own wording (`'type' object is not subscriptable`): the place names it.
            if short:
                return (
                    f"Identified by where it was raised ({match.where}); the wording is Python's."
                )
            return (
                f"Identified by where it was raised ({match.where}): the wording is Python's "
                "own and names no error by itself; the place does."
            )
        if short:
            return f"Identified by where it was raised ({match.where}); no message was copied."
        return (
            f"Identified by where it was raised ({match.where}): the text stops before the "
            "message, and the frames say which error this is."
        )
    if match.by == "raise_site":
        if short:
            return "Identified by where JAX raised it; the message alone did not say."
        return (
            "Identified by where JAX raised it (the last JAX frame of the traceback): the "
            "message alone did not say which error this is."
        )
    if match.inside:
        if short:
            return "Identified by words quoted from inside its message."
        return (
            "Identified by words quoted from inside its message: the text holds neither its "
            "beginning nor its end, and no other error's wording holds these words."
        )
    if match.cut_start:
        if short:
            return "Identified by the end of its message; its beginning was left out."
        return (
            "Identified by the end of its message: the text begins with `...` where its "
            "beginning was left out, and what follows ends this error's wording."
        )
    if match.cut and match.shared:
        if short:
            return (
                f"Identified by the beginning of its message, which {match.shared} errors share; "
                "this is the most common of them."
            )
        return (
            "Identified by the beginning of its message: the text stops before the message "
            f"ends, and what is there begins the wording of {match.shared} errors of this "
            "class; this is the most common of them."
        )
    if match.cut:
        if short:
            return "Identified by the beginning of its message; the rest was cut off."
        return (
            "Identified by the beginning of its message: the text stops before the message "
            "ends (a cut paste, a `...`), and what is there begins this error's wording."
        )
    return ""


def class_table(matcher: Matcher) -> dict[str, object]:
    """What `match_by_class` names, as data the site's search ships (`site/assets/match.js`
    applies it the same way): per class with no status, per status of XLA's runtime class, and
    the rules that read a printed class."""
    names: dict[str, str] = {}
    for cls in sorted(set(_index(matcher)) | _WRAPPERS):
        found = match_by_class(matcher, cls, "")
        if found is not None:
            names[cls] = found.entry.id
    statuses: dict[str, str] = {}
    for code in STATUS_CODES:
        found = match_by_class(matcher, "XlaRuntimeError", f"{code}: ")
        if found is not None:
            statuses[code] = found.entry.id
    return {
        "names": names,
        "statuses": statuses,
        "renamed": dict(_RENAMED),
        "ownNames": list(_OWN_NAMES),
        "modules": sorted(_JAX_STACK),
        "xlaModules": sorted(_XLA_MODULES),
        "carriers": sorted(_STATUS_CARRIERS),
        "runtime": "XlaRuntimeError",
        # Named only when copied without a message (the error is in it, or after it).
        "wrappers": sorted(_WRAPPERS),
    }
