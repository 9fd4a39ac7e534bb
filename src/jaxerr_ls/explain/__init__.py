"""Explaining: traceback text -> `Explanation` (parsed, matched, located) -> diagnostics.

The core step between the catalog and tracebacks below and the renderers and shells above. The
names below load on first use: the language server imports `explain.diagnostics` when it starts,
and the catalog and the parser only when a traceback arrives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jaxerr_ls.lazy import names_on_first_use

if TYPE_CHECKING:
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
_HOMES = {name: "build" for name in __all__} | {"Explanation": "model"}

__getattr__ = names_on_first_use(globals(), _HOMES)
