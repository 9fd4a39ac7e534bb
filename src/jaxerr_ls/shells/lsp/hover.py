"""Hover: the JAX API under the cursor and the errors the catalog knows it raises."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec, ServerTextPosition, ServerTextRange

from jaxerr_ls.render.markdown import FULL, render_api_hover
from jaxerr_ls.resolve import DottedName, dotted_at, public_name, qualify, worth_inferring
from jaxerr_ls.shells.lsp.convert import Lines

if TYPE_CHECKING:
    from jaxerr_ls.catalog import Catalog


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


def hover_result(
    target: Target,
    api: str,
    catalog: Catalog,
    markdown: bool,
    lines: Lines,
    codec: PositionCodec,
    release: str | None = None,
    site_url: str = "",
) -> types.Hover | None:
    from jaxerr_ls.catalog.older import loaded_older
    from jaxerr_ls.render.facts import catalog_releases

    entries = catalog.for_api(api)
    if not entries:
        return None
    known = catalog_releases(catalog)
    # The releases before the main index, once an explanation has loaded them (a hover never
    # loads them itself: it must stay cheap).
    older = loaded_older(catalog)
    if older is not None:
        entries = tuple(older.extend(e) for e in entries[:FULL]) + tuple(entries[FULL:])
        known = (*older.releases, *known)
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    word = ServerTextRange(
        ServerTextPosition(target.line, target.name.start),
        ServerTextPosition(target.line, target.name.end),
    )
    return types.Hover(
        contents=types.MarkupContent(
            kind=kind,
            value=render_api_hover(
                api, entries, markdown, release, known, site_url
            ),
        ),
        range=codec.range_to_client_units(lines, word),
    )
