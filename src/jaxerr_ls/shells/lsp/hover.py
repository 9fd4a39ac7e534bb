"""Hover: the JAX API under the cursor and the errors the catalog knows it raises."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec, ServerTextPosition, ServerTextRange

from jaxerr_ls.render.markdown import FULL, render_api_hover
from jaxerr_ls.resolve import DottedName, dotted_at, public_name, qualify, worth_inferring
from jaxerr_ls.shells.lsp.convert import Lines

if TYPE_CHECKING:
    from jaxerr_ls.analysis.call_shape import CallTable
    from jaxerr_ls.catalog import Catalog, Entry
    from jaxerr_ls.catalog.hover_index import HoverSource


RENDERED_KEPT = 256
_RENDERED: dict[tuple[object, ...], str] = {}


@dataclass(frozen=True)
class Target:
    name: DottedName
    line: int
    api: str | None  # the catalogued public name, when the imports told us
    ask_jedi: bool  # the imports could not tell, and jedi might


def fast_target(
    lines: Lines, line: int, column: int, bindings: Mapping[str, str], apis: Collection[str]
) -> Target | None:
    """Resolve from the file's imports alone (microseconds)."""
    if not 0 <= line < len(lines):
        return None
    name = dotted_at(lines[line], column)
    if name is None:
        return None
    qualified = qualify(name, bindings)
    if qualified is not None:
        return Target(name, line, public_name(qualified, apis), False)
    return Target(name, line, None, worth_inferring(name, "".join(lines)))


def inferred_api(names: list[str], apis: Collection[str]) -> str | None:
    for full_name in names:
        found = public_name(full_name, apis)
        if found is not None:
            return found
    return None


def markdown_supported(capabilities: types.ClientCapabilities) -> bool:
    hover = capabilities.text_document.hover if capabilities.text_document else None
    formats = hover.content_format if hover is not None else None
    # The spec's default, when the client says nothing, is plain text.
    return bool(formats) and formats[0] == types.MarkupKind.Markdown  # type: ignore[index]


def line_entry_ids(
    diagnostics: Sequence[types.Diagnostic], line: int, related: Sequence[int]
) -> list[str]:
    """The entries of the diagnostics on the hovered line, then on the lines that concern the
    call (`analysis/call_shape.py`), each in the order the diagnostics come (traceback first)."""
    ids: list[str] = []
    for wanted in (line, *related):
        for diagnostic in diagnostics:
            span = diagnostic.range
            if span.start.line <= wanted <= span.end.line and isinstance(diagnostic.code, str):
                ids.append(diagnostic.code)
    return list(dict.fromkeys(ids))


def hover_context(
    table: CallTable | None,
    line: int,
    column: int,
    api: str,
    diagnostics: Sequence[types.Diagnostic],
) -> tuple[list[str], tuple[str, ...]]:
    """The entry ids this call risks here: the diagnostics' (its line, then the lines its shape
    ties to it) and the shape's own. Without the text's call table (`analysis/call_shape.py`),
    the diagnostics on the line only."""
    if table is None:
        return line_entry_ids(diagnostics, line, ()), ()
    shape = table.shape(line, column, api)
    return line_entry_ids(diagnostics, line, shape.lines), shape.entry_ids


def hover_result(
    target: Target,
    api: str,
    source: HoverSource,
    markdown: bool,
    lines: Lines,
    codec: PositionCodec,
    release: str | None = None,
    site_url: str = "",
    line_ids: Sequence[str] = (),
    shape_ids: Sequence[str] = (),
    catalog: Catalog | None = None,
) -> types.Hover | None:
    """`line_ids`/`shape_ids`: what this call risks here (`hover_context`); their entries come
    from the API's own or, for one it does not list, from `catalog` when it is loaded."""
    from jaxerr_ls.catalog.older import any_loaded_older, loaded_older
    from jaxerr_ls.render.hover_rank import rank_hover

    own = source.for_api(api)  # lookup; the ranking puts what this call risks here first
    if not own:
        return None
    ranked = rank_hover(
        own, known_entries(line_ids, own, catalog), known_entries(shape_ids, own, catalog)
    )
    entries, known = list(ranked.entries), tuple(source.releases)
    # The releases before the main index, once an explanation has loaded them (a hover never
    # loads them itself: it must stay cheap).
    older = loaded_older(catalog) if catalog is not None else any_loaded_older()
    if older is not None:
        entries[:FULL] = [older.extend(e) for e in entries[:FULL]]
        known = (*older.releases, *known)
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    # Rendering is most of a warm hover's time, and a hover on the same call (or the same API
    # with nothing at risk) renders the same text again: kept, keyed by all it reads.
    key = (
        api,
        tuple(e.id for e in ranked.entries),
        ranked.here,
        markdown,
        release,
        known,
        site_url,
        id(older) if older is not None else None,
    )
    value = _RENDERED.pop(key, None)
    if value is None:
        value = render_api_hover(api, entries, markdown, release, known, site_url, ranked.here)
    _RENDERED[key] = value  # the newest last
    while len(_RENDERED) > RENDERED_KEPT:
        del _RENDERED[next(iter(_RENDERED))]
    word = ServerTextRange(
        ServerTextPosition(target.line, target.name.start),
        ServerTextPosition(target.line, target.name.end),
    )
    return types.Hover(
        contents=types.MarkupContent(kind=kind, value=value),
        range=codec.range_to_client_units(lines, word),
    )


def known_entries(ids: Sequence[str], own: Sequence[Entry], catalog: Catalog | None) -> list[Entry]:
    by_id = {entry.id: entry for entry in own}
    found = (by_id.get(i) or (catalog.get(i) if catalog is not None else None) for i in ids)
    return [entry for entry in found if entry is not None]
