"""Is the error a field program raised visible in the hover of the API on the line to change?

The hover is computed with the server's own functions (`shells/lsp/hover.py`: the name resolved
through the file's imports, jedi when they cannot tell; `hover_context` and `hover_result`'s
ranking), with the diagnostic the program's real traceback gives (its entry on its line), as after
`jaxerr-ls run` or a pasted traceback. Visible: among the entries the hover shows in full (the
first three, or every entry at risk here when there are more). Before issue 19 the hover showed
the API's entries in the catalog's order whatever the line held: counted too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from jaxerr_ls.analysis.call_shape import call_table
from jaxerr_ls.catalog import Catalog, Matcher
from jaxerr_ls.explain import explain_text
from jaxerr_ls.render.hover_rank import rank_hover
from jaxerr_ls.render.markdown import FULL
from jaxerr_ls.resolve import dotted_at, public_name, qualify
from jaxerr_ls.resolve.imports import scan_imports
from jaxerr_ls.resolve.infer import infer_names
from jaxerr_ls.shells.lsp.hover import hover_context
from tests.field.corpus import FieldProgram


@dataclass(frozen=True)
class HoverSeen:
    program: FieldProgram
    api: str | None  # the API the hover resolves, None when there is no hover
    entry: str | None  # the entry the raised error reaches
    visible: bool
    visible_before: bool  # in the catalog's order for the API, as hovers were before
    rank: int | None  # 1-based place of the raised error among the hover's entries


def _api(program: FieldProgram, catalog: Catalog) -> str | None:
    assert program.hover is not None
    source = program.program.read_text(encoding="utf-8")
    text = source.splitlines()[program.hover.line - 1]
    name = dotted_at(text, program.hover.character + 1)
    if name is None:
        return None
    qualified = qualify(name, scan_imports(source))
    if qualified is not None:
        return public_name(qualified, catalog.by_api)
    names = infer_names(
        source, str(program.program), None, program.hover.line - 1, program.hover.character + 1
    )
    return next((p for n in names if (p := public_name(n, catalog.by_api)) is not None), None)


def hover_seen(
    program: FieldProgram, catalog: Catalog, entry: str | None, line: int | None
) -> HoverSeen:
    """`entry`/`line` (1-based): where the program's real traceback puts its diagnostic."""
    if program.hover is None:
        return HoverSeen(program, None, entry, False, False, None)
    api = _api(program, catalog)
    own = catalog.for_api(api) if api is not None else ()
    if api is None or not own:
        return HoverSeen(program, api, entry, False, False, None)
    diagnostics = []
    if entry is not None and line is not None:
        span = types.Range(types.Position(line - 1, 0), types.Position(line - 1, 1))
        diagnostics.append(types.Diagnostic(span, "", code=entry, source="jaxerr"))
    source = program.program.read_text(encoding="utf-8")
    line_ids, shape_ids = hover_context(
        call_table(source), program.hover.line - 1, program.hover.character + 1, api, diagnostics
    )
    ranked = rank_hover(
        own,
        [e for e in map(catalog.get, line_ids) if e is not None],
        [e for e in map(catalog.get, shape_ids) if e is not None],
    )
    ids = [e.id for e in ranked.entries]
    shown = ids[: max(FULL, ranked.here)]
    rank = ids.index(entry) + 1 if entry in ids else None
    before = [e.id for e in own[:FULL]]
    return HoverSeen(program, api, entry, entry in shown, entry in before, rank)


def located(stderr: str, root: Path, matcher: Matcher) -> tuple[str | None, int | None]:
    """The entry and the 1-based line the traceback's diagnostic gets."""
    explained = explain_text(stderr, matcher, root=root)
    if not explained:
        return None, None
    last = explained[-1]
    entry = last.match.entry.id if last.match is not None else None
    line = last.location.line if last.location is not None else None
    return entry, line
