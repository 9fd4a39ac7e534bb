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
    from jaxerr_ls.catalog import Entry, Matcher

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


def entry_for(error: BaseException) -> Entry | None:
    """The catalog entry the exception matches (as its printed traceback reads), or None."""
    from jaxerr_ls.explain import explain_text

    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    explanations = explain_text(text, matcher())
    if not explanations or explanations[-1].match is None:
        return None
    return explanations[-1].match.entry


def as_text(entry: Entry, style: Style | None = None) -> str:
    """What a terminal shows after the traceback: the entry, how to fix it, before/after."""
    style = style or Style()
    body = render_entry(replace(entry, docs=""), style, full=False)  # the link goes last
    lines = ["", style.dim("jaxerr-ls explains:"), *body]
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
