"""A live exception (in IPython, Jupyter, Colab or a plain Python process) -> its catalog entry,
explained as text and HTML. Used by `%load_ext jaxerr_ls` and `jaxerr_ls.install()`; the
exception is read as the traceback Python would print, so it is matched as `explain` matches it."""

from __future__ import annotations

import threading
import traceback
from dataclasses import replace
from typing import TYPE_CHECKING

from jaxerr_ls.render.terminal import Style, render_entry

if TYPE_CHECKING:
    from jaxerr_ls.catalog import Entry, Match, Matcher

_matcher: Matcher | None = None
_lock = threading.Lock()


def matcher() -> Matcher:
    """Built on the first error (a session without errors never loads the catalog)."""
    global _matcher
    with _lock:
        if _matcher is None:
            from jaxerr_ls.catalog import Matcher, load_catalog

            _matcher = Matcher(load_catalog())
        return _matcher


def match_for(error: BaseException) -> Match | None:
    """The catalog match of the exception (as its printed traceback reads), or None."""
    from jaxerr_ls.explain import explain_text

    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    explanations = explain_text(text, matcher())
    return explanations[-1].match if explanations else None


def how_identified(match: Match, exception: str) -> str:
    """How the entry was found, in words, when not by its message."""
    from jaxerr_ls.catalog.classes import identified_words

    return identified_words(match, exception)


def entry_for(error: BaseException) -> Entry | None:
    """The catalog entry the exception matches (as its printed traceback reads), or None."""
    found = match_for(error)
    return found.entry if found is not None else None


def as_text(entry: Entry, style: Style | None = None, how: str = "") -> str:
    """What a terminal shows after the traceback: the entry, how to fix it, before/after; `how`
    says how the entry was found when not by its message (see `catalog.classes`)."""
    style = style or Style()
    body = render_entry(replace(entry, docs=""), style, full=False)  # the link goes last
    lines = ["", style.dim("jaxerr-ls explains:"), *body[:1]]
    if how:
        lines.append(style.dim("  " + how))
    lines += body[1:]
    if entry.example is not None:
        for label, code in (("Before", entry.example.before), ("After", entry.example.after)):
            lines += ["", style.bold(f"  {label}:")]
            lines += ["    " + line if line else "" for line in code.strip().splitlines()]
    if entry.docs:
        lines += ["", "  Docs: " + style.cyan(entry.docs)]
    return "\n".join(lines) + "\n"


def as_html(entry: Entry) -> str:
    from jaxerr_ls.render.html import render_entry_html

    return render_entry_html(entry)
