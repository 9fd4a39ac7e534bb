"""Core values (code-point columns) <-> LSP values (the client's position encoding)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace.position_codec import PositionCodec, ServerTextPosition, ServerTextRange

from jaxerr_ls.explain.diagnostics import SOURCE, Change, Item, Span

if TYPE_CHECKING:
    from jaxerr_ls.fixes.base import TextEdit as FixEdit

Lines = Sequence[str]


def norm_uri(uri: str) -> str:
    """One spelling per file, whichever way the client percent-encodes its URIs."""
    path = to_fs_path(uri)
    return (from_fs_path(path) or uri) if path else uri


def path_uri(path: str) -> str:
    return from_fs_path(path) or path


def client_range(lines: Lines, codec: PositionCodec, span: Span) -> types.Range:
    server = ServerTextRange(
        ServerTextPosition(span.line, span.start), ServerTextPosition(span.line, span.end)
    )
    return codec.range_to_client_units(lines, server)


def to_diagnostic(
    item: Item, lines_of: Callable[[str], Lines], codec: PositionCodec
) -> types.Diagnostic:
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(r.uri, client_range(lines_of(r.uri), codec, r.span)),
            message=r.message,
        )
        for r in item.related
    ]
    return types.Diagnostic(
        range=client_range(lines_of(item.uri), codec, item.span),
        message=item.message,
        severity=(
            types.DiagnosticSeverity.Warning if item.warning else types.DiagnosticSeverity.Error
        ),
        source=SOURCE,
        code=item.entry_id,
        code_description=types.CodeDescription(href=item.href) if item.href else None,
        related_information=related or None,
        data=item.data,
    )


def to_changes(events: Sequence[types.TextDocumentContentChangeEvent]) -> list[Change]:
    """Line-level view of content changes; lines do not depend on the position encoding."""
    out: list[Change] = []
    for event in events:
        if isinstance(event, types.TextDocumentContentChangePartial):
            out.append(Change(event.range.start.line, event.range.end.line, event.text))
        else:
            out.append(Change(-1, -1, event.text))
    return out


def text_edit(lines: Lines, codec: PositionCodec, edit: FixEdit) -> types.TextEdit:
    """A fix's edit (code points, on the current text) as an LSP TextEdit."""
    start = ServerTextPosition(edit.start_line, edit.start_col)
    end = ServerTextPosition(edit.end_line, edit.end_col)
    rng = codec.range_to_client_units(lines, ServerTextRange(start, end))
    return types.TextEdit(range=rng, new_text=edit.new_text)
