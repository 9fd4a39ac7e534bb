"""Explaining: traceback text -> `Explanation` (parsed, matched, located) -> diagnostics.

The core step between the catalog and tracebacks below and the renderers and shells above.
"""

from jaxerr_ls.explain.build import (
    explain_notebook,
    explain_paste,
    explain_text,
    explain_traceback,
    match_exception,
    match_traceback,
)
from jaxerr_ls.explain.model import Explanation

__all__ = [
    "Explanation",
    "explain_notebook",
    "explain_paste",
    "explain_text",
    "explain_traceback",
    "match_exception",
    "match_traceback",
]
