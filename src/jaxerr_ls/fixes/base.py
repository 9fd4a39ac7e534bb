"""The fix contract: text in, minimal edits out. No LSP types here; the server converts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from jaxerr_ls.edits import TextEdit

__all__ = ["Fix", "FixContext", "ProposedFix", "TextEdit"]


@dataclass(frozen=True)
class ProposedFix:
    fix_id: str
    title: str
    safe: bool  # behaviour preserved: preferred, and used by source.fixAll
    edits: tuple[TextEdit, ...]
    # The file's own code shows this is the fix it needs (its calls pass literals to the
    # parameters marked static; arrays to the ones a `jnp.where` chooses on): put before others.
    fits_file: bool = False


@dataclass(frozen=True)
class FixContext:
    source: str  # the document's current text
    line: int  # 0-based line of the diagnostic (or cursor)
    column: int | None = None  # 0-based code-point column of the cursor, when known
    fields: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    entry_id: str | None = None  # the catalog entry, when the request comes from a diagnostic


class Fix(Protocol):
    id: str
    safe: bool

    def propose(self, ctx: FixContext) -> ProposedFix | None: ...
