"""Traceback text -> structured tracebacks, and where in the user's code they point (no LSP)."""

from jaxerr_ls.tracebacks.model import Frame, Traceback
from jaxerr_ls.tracebacks.parse import parse_paste, parse_tracebacks

__all__ = ["Frame", "Traceback", "parse_paste", "parse_tracebacks"]
