"""Traceback text -> structured tracebacks, and where in the user's code they point (no LSP).

The names below load on first use: the language server imports the small modules it needs at
start (the frame model, locating files), not the parser and its dialects."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jaxerr_ls.lazy import names_on_first_use

if TYPE_CHECKING:
    from jaxerr_ls.tracebacks.model import Frame, Traceback
    from jaxerr_ls.tracebacks.parse import parse_paste, parse_tracebacks

__all__ = ["Frame", "Traceback", "parse_paste", "parse_tracebacks"]
_HOMES = {
    "Frame": "model",
    "Traceback": "model",
    "parse_paste": "parse",
    "parse_tracebacks": "parse",
}

__getattr__ = names_on_first_use(globals(), _HOMES)
