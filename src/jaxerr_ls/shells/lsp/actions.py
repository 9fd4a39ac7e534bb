"""Code actions from the fixes: quick fixes per diagnostic (from its `data`, no re-parse),
`source.fixAll.jaxerr` with the safe ones, and `refactor.rewrite` at a bare cursor."""

from __future__ import annotations

import dataclasses
import logging
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from jaxerr_ls.explain.diagnostics import SOURCE
from jaxerr_ls.shells.lsp.convert import Lines, text_edit

if TYPE_CHECKING:  # the fixes (and parso) load on the first code action
    from jaxerr_ls.analysis.cells import JoinedCells
    from jaxerr_ls.catalog import Catalog
    from jaxerr_ls.fixes.base import ProposedFix
    from jaxerr_ls.fixes.base import TextEdit as FixEdit
    from jaxerr_ls.rules.base import Finding

log = logging.getLogger(__name__)

FIX_ALL = "source.fixAll.jaxerr"
KINDS = (types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite, FIX_ALL)
# A file without an analysis of its current text runs the rules here only up to this size (the
# rules take ~0.5 ms a line; the worker process analyses the rest, see predict.py).
CHEAP_LINES = 400


@dataclass(frozen=True)
class ProgramView:
    """A notebook cell's code actions see the notebook's code cells as one program (as the
    predictions do): fixes read and edit the program, their edits go back to the cells."""

    cells: tuple[tuple[str, str, Lines], ...]  # (URI, text, lines) of each code cell, in order
    cell: str  # the URI of the cell asked about

    @property
    def key(self) -> tuple[tuple[str, str], ...]:
        """What the actions depend on besides the cell itself: every code cell's text."""
        return tuple((uri, text) for uri, text, _ in self.cells)

    @cached_property
    def joined(self) -> JoinedCells:
        """The program, keyed by cell URI; joined in the worker thread (it parses each cell)."""
        from jaxerr_ls.analysis.cells import join_cells

        return join_cells(self.key)

    @cached_property
    def lines(self) -> Mapping[str, Lines]:
        return {uri: lines for uri, _, lines in self.cells}


@dataclass(frozen=True)
class Request:
    """What a code action needs, snapshotted on the event loop (handled in a worker thread)."""

    uri: str
    source: str
    lines: Lines
    codec: PositionCodec
    line: int  # 0-based start of the requested range
    column: int  # code points
    diagnostics: tuple[types.Diagnostic, ...]  # ours, from the request's context
    stored: tuple[tuple[str, Mapping[str, str], int], ...]  # (entry, fields, line) for fixAll
    only: tuple[str, ...] | None
    selected: bool = False  # the requested range is not empty (the user selected code)
    program: ProgramView | None = None  # set for a notebook cell
    # The last analysis's findings on this very text, (entry, fields, line, end line) each;
    # None when there is none (predictions off, or the analysis not done yet).
    analysed: tuple[tuple[str, Mapping[str, str], int, int], ...] | None = None


def _in_program(request: Request, line: int) -> tuple[str, int] | None:
    """(source the fixes read, line in it) for `line` of the requested document; None when the
    line is not analysed (an IPython magic, a cell that does not parse)."""
    if request.program is None:
        return request.source, line
    found = request.program.joined.program_line(request.program.cell, line)
    return None if found is None else (request.program.joined.source, found)


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """`only` filters by prefix ("source" admits source.fixAll.jaxerr); None: all but source."""
    if only is None:
        return not kind.startswith("source")
    return any(kind == o or kind.startswith(o + ".") or not o for o in only)


def _api() -> Any:
    """The fixes package, or None while it cannot be imported (the server keeps serving)."""
    try:
        import jaxerr_ls.fixes as fixes
    except ImportError as exc:
        log.warning("fixes unavailable: %s", exc)
        return None
    return fixes


def data_of(diagnostic: types.Diagnostic) -> tuple[str, Mapping[str, str]] | None:
    data = diagnostic.data
    if diagnostic.source != SOURCE or not isinstance(data, dict):
        return None
    entry, fields = data.get("entry"), data.get("fields") or {}
    if not isinstance(entry, str) or not isinstance(fields, dict):
        return None
    return entry, MappingProxyType({str(k): str(v) for k, v in fields.items()})


def _edit(request: Request, edits: Sequence[FixEdit]) -> types.WorkspaceEdit | None:
    """The fix's edits for the client; None when one would not land inside one notebook cell's
    own text (it is then not offered)."""
    if request.program is None:
        lsp_edits = [text_edit(request.lines, request.codec, e) for e in edits]
        return types.WorkspaceEdit(changes={request.uri: lsp_edits})
    changes: dict[str, list[types.TextEdit]] = {}
    for edit in edits:
        cell = request.program.joined.place_span(edit.start_line, edit.end_line, edit.end_col)
        if cell is None:
            return None
        local = dataclasses.replace(
            edit, start_line=edit.start_line - cell.start, end_line=edit.end_line - cell.start
        )
        lines = request.program.lines[cell.key]
        changes.setdefault(cell.key, []).append(text_edit(lines, request.codec, local))
    return types.WorkspaceEdit(changes=changes)


def _proposals(
    request: Request, catalog: Catalog, entry_id: str, fields: Mapping[str, str], line: int
) -> list[ProposedFix]:
    fixes, entry = _api(), catalog.get(entry_id)
    where = _in_program(request, line)
    if fixes is None or entry is None or not entry.fixes or where is None:
        return []
    ctx = fixes.FixContext(where[0], where[1], None, fields, entry_id)
    found: list[ProposedFix] = fixes.fixes_for(entry.fixes, ctx)
    return found


def nothing_to_offer(request: Request) -> bool:
    """True when no action can come of the request, known without the catalog, the fixes or a
    parse: a bare cursor, no diagnostic, nothing stored for fixAll, and no finding of the last
    analysis on that line (or none to be had without running the rules on a large file)."""
    if request.diagnostics and wanted(types.CodeActionKind.QuickFix, request.only):
        return False
    if request.stored and wanted(FIX_ALL, request.only):
        return False
    if request.diagnostics or not wanted(types.CodeActionKind.RefactorRewrite, request.only):
        return True
    if request.selected or request.program is not None:
        return False
    if request.analysed is not None:
        return not any(line <= request.line <= end for _, _, line, end in request.analysed)
    return len(request.lines) > CHEAP_LINES


def code_actions(request: Request, catalog: Catalog) -> list[types.CodeAction]:
    out: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix, request.only):
        for diagnostic in request.diagnostics:
            found = data_of(diagnostic)
            if found is None:
                continue
            line = diagnostic.range.start.line
            proposals = _proposals(request, catalog, found[0], found[1], line)
            best = _api().preferred(proposals) if proposals else None
            # The preferred fix first, then the others in the entry's order.
            for fix in sorted(proposals, key=lambda p: p is not best):
                edit = _edit(request, fix.edits)
                if edit is not None:
                    out.append(
                        types.CodeAction(
                            title=fix.title,
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic],
                            is_preferred=fix is best,
                            edit=edit,
                        )
                    )
    if wanted(FIX_ALL, request.only):
        fix_all = _fix_all(request, catalog)
        if fix_all is not None:
            out.append(fix_all)
    if not request.diagnostics and wanted(types.CodeActionKind.RefactorRewrite, request.only):
        out += _rewrites(request, catalog)
    return out


def code_actions_of_large(request: Request, catalog: Catalog) -> list[types.CodeAction]:
    """`code_actions`, then, for a file over CHEAP_LINES, the fixes' per-text state dropped and
    its memory given back: a refactoring's fix may parse and analyse the whole file (twice: the
    fixed text too), ~25 MB the server would otherwise hold for each version asked about. The
    answers stay in the server's cache of code actions per cursor."""
    try:
        return code_actions(request, catalog)
    finally:
        if len(request.lines) > CHEAP_LINES and "jaxerr_ls.fixes" in sys.modules:  # loaded
            from jaxerr_ls.fixes import forget_texts
            from jaxerr_ls.shells.lsp.preload import give_back

            forget_texts()
            give_back()


def _fix_all(request: Request, catalog: Catalog) -> types.CodeAction | None:
    """Every safe fix of the stored diagnostics whose edits do not overlap an earlier one's."""
    chosen: list[FixEdit] = []
    for entry_id, fields, line in request.stored:
        for fix in _proposals(request, catalog, entry_id, fields, line):
            if (
                fix.safe
                and not any(_overlaps(e, c) for e in fix.edits for c in chosen)
                and _edit(request, fix.edits) is not None
            ):
                chosen += fix.edits
                break
    edit = _edit(request, sorted(chosen, key=lambda e: (e.start_line, e.start_col)))
    if not chosen or edit is None:
        return None
    return types.CodeAction(title="jaxerr: apply all safe fixes", kind=FIX_ALL, edit=edit)


def _overlaps(a: FixEdit, b: FixEdit) -> bool:
    return (a.start_line, a.start_col) < (b.end_line, b.end_col) and (b.start_line, b.start_col) < (
        a.end_line,
        a.end_col,
    )


def _rewrites(request: Request, catalog: Catalog) -> list[types.CodeAction]:
    """Refactorings without a diagnostic: only where a rule flags the code, or on a selection."""
    try:
        from jaxerr_ls.fixes.offer import refactorings
    except ImportError as exc:
        log.warning("fixes unavailable: %s", exc)
        return []

    def fixes_of(entry_id: str) -> tuple[str, ...]:
        entry = catalog.get(entry_id)
        return () if entry is None else tuple(entry.fixes)

    where = _in_program(request, request.line)
    if where is None:
        return []
    proposals = refactorings(
        where[0],
        where[1],
        request.column,
        selected=request.selected,
        fixes_of=fixes_of,
        findings=_known_findings(request),
    )
    edits = [(fix.title, _edit(request, fix.edits)) for fix in proposals]
    return [
        types.CodeAction(title=title, kind=types.CodeActionKind.RefactorRewrite, edit=edit)
        for title, edit in edits
        if edit is not None
    ]


def _known_findings(request: Request) -> Sequence[Finding] | None:
    """What the rules found on the request's text without running them on a large file: the
    last analysis's findings when it read this text; None (run them here) for a small file or
    a notebook's cells; none at all for a large file not analysed yet (never wait for it)."""
    if request.program is not None or request.selected:
        return None
    if request.analysed is not None:
        from jaxerr_ls.rules.base import Finding

        return [
            Finding(entry, line, 0, end_line, 0, "", "", fields)
            for entry, fields, line, end_line in request.analysed
        ]
    if len(request.lines) <= CHEAP_LINES:
        return None
    log.debug("%s: no analysis of this text yet; no refactorings at the cursor", request.uri)
    return []


def analysed(
    predicted: Sequence[types.Diagnostic] | None,
) -> tuple[tuple[str, Mapping[str, str], int, int], ...] | None:
    """The findings behind predicted diagnostics, for `Request.analysed`."""
    if predicted is None:
        return None
    out = []
    for diagnostic in predicted:
        found = data_of(diagnostic)
        if found is not None:
            out.append((found[0], found[1], diagnostic.range.start.line, diagnostic.range.end.line))
    return tuple(out)
