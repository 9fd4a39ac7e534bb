"""What JAX adds to tracebacks: the "internal frames removed" note, and the wrapper exceptions
(UnfilteredStackTrace, SimplifiedTraceback, FilteredStackTrace, JaxStackTraceBeforeTransformation)
that carry the real exception's text in their message."""

from __future__ import annotations

import re
from dataclasses import replace

from jaxerr_ls.tracebacks.dialects.common import EXCEPTION, exception_line, short_class
from jaxerr_ls.tracebacks.fragments import repr_in_message
from jaxerr_ls.tracebacks.model import Traceback

RULE = "--------------------"
JAX_NOTE_HEAD = "For simplicity, JAX has removed its internal frames"
WRAPPERS = frozenset(
    {
        "UnfilteredStackTrace",
        "FilteredStackTrace",
        "SimplifiedTraceback",
        "JaxStackTraceBeforeTransformation",
    }
)
BEFORE_TRANSFORMATION = "JaxStackTraceBeforeTransformation"
BEFORE_TRANSFORMATION_TAIL = "The preceding stack trace is the source of the JAX operation"
# The tails the wrappers append to the original text (current and 2020-21 wordings).
# A class quoted in markdown, as a thread's prose writes it (`jax.errors.UnexpectedTracerError`).
_QUOTED_CLASS = re.compile(r"`([A-Za-z_][\w.]*)`(?=\s*$|\n)")
_WRAPPER_TAIL = re.compile(
    r"\n*(?:The stack trace (?:below|above) excludes JAX-internal frames\."
    rf"|{BEFORE_TRANSFORMATION_TAIL})",
)


def is_wrapper_line(line: str) -> bool:
    """`jax.errors.SimplifiedTraceback: ...` and the like, at the start of a line."""
    found = EXCEPTION.match(line[:300])
    return found is not None and short_class(found.group("cls")) in WRAPPERS


def is_wrapper(traceback: Traceback) -> bool:
    return short_class(traceback.exception) in WRAPPERS


def split_jax_note(message: str) -> tuple[str, tuple[str, ...]]:
    """Separate JAX's "internal frames removed" note (a rule line then the note) from the text."""
    marker = f"{RULE}\n{JAX_NOTE_HEAD}"
    position = message.find(marker)
    if position < 0:
        return message, ()
    note = message[position + len(RULE) + 1 :]
    head = message[:position].rstrip("\n")
    note_text, _, after = note.partition("\n")
    rest = after.strip("\n")
    text = head if not rest else f"{head}\n{rest}"
    return text, (note_text.strip(),)


def _split_notes(traceback: Traceback) -> Traceback:
    message, notes = split_jax_note(traceback.message)
    causes = tuple(_split_notes(cause) for cause in traceback.causes)
    return replace(traceback, message=message, notes=traceback.notes + notes, causes=causes)


def inner_exception(wrapper: Traceback) -> tuple[str, str] | None:
    """The real exception class and message a wrapper's message starts with."""
    first, _, rest = _QUOTED_CLASS.sub(r"\1", wrapper.message, count=1).partition("\n")
    # A bare class counts when it reads as one (`UnfilteredStackTrace: AssertionError`).
    found = exception_line(first)
    if found is None or " " in found.group("cls"):
        return None
    message = (found.group("msg") or "").removeprefix(" ") + ("\n" + rest if rest else "")
    tail = _WRAPPER_TAIL.search(message)
    if tail is not None:
        message = message[: tail.start()]
    return found.group("cls"), message.rstrip()


def headless_wrapper(lines: list[str]) -> Traceback | None:
    """The text before a chain's first separator, when it ends in the note that JAX's
    `JaxStackTraceBeforeTransformation` closes with and no header was copied above it (a paste
    that starts inside the wrapper's message, diffrax#513): that wrapper, its message cut at the
    start."""
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].startswith(BEFORE_TRANSFORMATION_TAIL):
            text = "\n".join(lines[:index]).strip("\n")
            return Traceback(BEFORE_TRANSFORMATION, text) if text.strip() else None
    return None


def is_bare_note(traceback: Traceback) -> bool:
    """`jax.errors.SimplifiedTraceback: For simplicity, ...` with nothing after it: JAX's note
    that frames were removed, not an error (the exception it heads was not copied or not read)."""
    return (
        short_class(traceback.exception) == "SimplifiedTraceback"
        and not traceback.causes
        and inner_exception(traceback) is None
    )


def without_cut_wrapper(traceback: Traceback) -> Traceback:
    """A wrapper whose message the paste does not show (a notebook's header of
    `JaxStackTraceBeforeTransformation`, its text cut off) says nothing of its own: the error of
    the chain before it is the one read (jax#12846: a `KeyError`, then that header)."""
    if is_wrapper(traceback) and not traceback.message.strip() and traceback.causes:
        return traceback.causes[-1]
    return traceback


def _whole_message(traceback: Traceback) -> Traceback:
    """The re-raised exception's message cut short (an output cut at the fold, an excerpt) while
    the wrapper before it in the chain carries the same exception whole: the whole one."""
    cut = " ".join(traceback.message.split())
    for cause in traceback.causes:
        inner = inner_exception(cause) if is_wrapper(cause) else None
        if inner is None or short_class(inner[0]) != short_class(traceback.exception):
            continue
        whole = " ".join(inner[1].split())
        if len(whole) > len(cut) and whole.startswith(cut):
            return replace(traceback, message=inner[1])
    return traceback


def clean(traceback: Traceback) -> Traceback:
    """Notes split off; a chain that ends in a wrapper ends in the real exception instead, and
    a message cut short after a wrapper is read whole from the wrapper; a bare `Exception`
    whose message is another exception's quoted repr is that exception (`repr_in_message`)."""
    traceback = _split_notes(repr_in_message(traceback))
    if not is_wrapper(traceback):
        return _whole_message(traceback)
    inner = inner_exception(traceback)
    if inner is None:
        return _carried_by_cause(traceback)
    cls, text = inner
    wrapper = replace(traceback, causes=())
    return Traceback(cls, text, traceback.frames, (*traceback.causes, wrapper), traceback.notes)


def _carried_by_cause(note: Traceback) -> Traceback:
    """A chain cut inside JAX's closing note (`SimplifiedTraceback: For simplicity, ...` and
    nothing after it) while a wrapper before it carries the real exception: JAX raises that same
    exception after the note, so it is the error, at the wrapper's frames (the user's). The
    exception itself before the note (a `KeyReuseError` raised unwrapped, jax#20236) is the
    error the same way."""
    if short_class(note.exception) != "SimplifiedTraceback":
        return note
    for index in range(len(note.causes) - 1, -1, -1):
        cause = note.causes[index]
        if not is_wrapper(cause):
            if not cause.exception:
                continue
            earlier = (*note.causes[:index], replace(note, causes=()))
            return Traceback(cause.exception, cause.message, cause.frames, earlier, note.notes)
        inner = inner_exception(cause)
        if inner is not None:
            cls, text = inner
            wrappers = (*note.causes[:index], replace(cause, causes=()), replace(note, causes=()))
            return Traceback(cls, text, cause.frames, wrappers, note.notes)
    return note
