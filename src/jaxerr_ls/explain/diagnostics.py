"""Diagnostics from explained tracebacks, kept in one immutable store keyed by document URI.

Positions here are 0-based lines and code-point columns; the server converts them to the client's
encoding when it sends them. Each item remembers its line's text so that edits can move it (lines
inserted or removed above) or drop it (the line deleted or changed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from jaxerr_ls.catalog.links import entry_link
from jaxerr_ls.tracebacks.cells import Cell, find_cell
from jaxerr_ls.tracebacks.locate import LineReader, Workspace, is_cell, is_pseudo, is_user_frame
from jaxerr_ls.tracebacks.model import Frame

if TYPE_CHECKING:  # the catalog is imported only once a traceback arrives
    from jaxerr_ls.explain.model import Explanation

SOURCE = "jaxerr"
MEANING_CHARS = 300


@dataclass(frozen=True)
class Span:
    line: int  # 0-based
    start: int  # code points
    end: int


@dataclass(frozen=True)
class Related:
    uri: str
    span: Span
    message: str


@dataclass(frozen=True)
class Item:
    uri: str
    span: Span
    text: str  # the line's text (stripped) when the item was placed
    message: str
    origin: str  # what produced it: "command", or the path of a .jaxerr/*.txt file
    entry_id: str | None = None
    href: str | None = None
    fields: Mapping[str, str] = field(default_factory=dict)
    related: tuple[Related, ...] = ()
    # A warning Python printed (`UserWarning: ...`), not an exception: shown as a warning.
    warning: bool = False

    @property
    def data(self) -> dict[str, object]:
        return {"entry": self.entry_id, "fields": dict(self.fields)}


@dataclass(frozen=True)
class Change:
    """One content change: the replaced range's lines (before the change) and the new text;
    start_line -1 means the whole document was replaced."""

    start_line: int
    end_line: int
    text: str


def span_of(line: str, source: str, number: int) -> Span:
    """Where the printed source text sits on the line; the line's text when it is not found."""
    wanted = source.strip()
    start = line.find(wanted) if wanted else -1
    if start < 0:
        stripped = line.strip()
        start = line.find(stripped) if stripped else 0
        wanted = stripped
    return Span(number, start, start + len(wanted))


def _message(explanation: Explanation) -> str:
    tb, match = explanation.traceback, explanation.match
    first = tb.message.split("\n", 1)[0].strip()
    head = f"{tb.exception}: {first}" if first else tb.exception
    if match is None:
        why = explanation.unexplained() if not first else ""
        return f"{head}\n\n{why}" if why else head
    entry = match.entry
    meaning = " ".join((entry.meaning or entry.title).split())
    if len(meaning) > MEANING_CHARS:
        meaning = meaning[: MEANING_CHARS - 1].rstrip() + "…"
    # Here, not at the top: the server imports this module when it starts, the matcher only
    # once a traceback arrives.
    from jaxerr_ls.catalog.classes import identified_words

    how = identified_words(match, tb.exception, short=True, message=tb.message)
    text = f"{head}\n\n{meaning}" if meaning else head
    return f"{text}\n\n{how}" if how else text


def _related(
    frames: Iterable[Frame],
    skip: tuple[str, int, int | None],  # where the diagnostic itself is (path, line, cell)
    workspace: Workspace,
    reader: LineReader,
    to_uri: Callable[[str], str],
) -> tuple[Related, ...]:
    out: list[Related] = []
    for frame in frames:
        if is_cell(frame.path):  # a caller in another cell of an open notebook
            place = find_cell(workspace.open_notebooks, frame.path, frame.line, frame.source)
            cell = _open_cell(workspace, place.notebook.path, place.cell) if place else None
            if (
                place is None
                or cell is None
                or (place.notebook.path, place.line, place.cell) == skip
            ):
                continue
            lines = cell.lines
            text = lines[place.line - 1] if 0 < place.line <= len(lines) else ""
            where = f"in {frame.function}" if frame.function else "called from here"
            out.append(Related(cell.uri, span_of(text, frame.source, place.line - 1), where))
            continue
        if not is_user_frame(frame) or is_pseudo(frame.path):
            continue
        path = workspace.resolve(frame.path)
        if path is None or (str(path), frame.line, None) == skip:
            continue
        lines = reader(path) or []
        text = lines[frame.line - 1] if 0 < frame.line <= len(lines) else ""
        where = f"in {frame.function}" if frame.function else "called from here"
        out.append(Related(to_uri(str(path)), span_of(text, frame.source, frame.line - 1), where))
    return tuple(out)


def items_for(
    explanations: Sequence[Explanation],
    workspace: Workspace,
    reader: LineReader,
    origin: str,
    to_uri: Callable[[str], str] = lambda p: Path(p).as_uri(),
    site_url: str = "",
) -> tuple[Item, ...]:
    """One item per traceback that points into the workspace, at the user's deepest line."""
    out: list[Item] = []
    for explanation in explanations:
        location = explanation.location
        if location is None or not location.in_workspace:
            continue
        if location.cell is not None:
            cell = _open_cell(workspace, location.path, location.cell)
            if cell is None:  # a saved notebook nobody has open: no document to put it on
                continue
            uri, lines = cell.uri, cell.lines
        else:
            uri, lines = to_uri(location.path), reader(Path(location.path)) or []
        number = location.line - 1
        text = lines[number] if 0 <= number < len(lines) else ""
        frame = next(
            (f for f in reversed(explanation.traceback.frames) if f.source.strip() == text.strip()),
            None,
        )
        match = explanation.match
        out.append(
            Item(
                uri=uri,
                span=span_of(text, frame.source if frame else "", number),
                text=text.strip(),
                message=_message(explanation),
                origin=origin,
                entry_id=match.entry.id if match else None,
                href=entry_link(match.entry, site_url) if match else None,
                fields=MappingProxyType(dict(match.fields)) if match else MappingProxyType({}),
                related=_related(
                    reversed(explanation.traceback.frames),
                    (location.path, location.line, location.cell),
                    workspace,
                    reader,
                    to_uri,
                ),
                warning=explanation.traceback.exception.endswith("Warning"),
            )
        )
    return tuple(out)


def _open_cell(workspace: Workspace, path: str, index: int) -> Cell | None:
    for notebook in workspace.open_notebooks:
        if notebook.path == path and 0 <= index < len(notebook.cells):
            cell = notebook.cells[index]
            return cell if cell.uri else None
    return None


@dataclass(frozen=True)
class Store:
    """Every diagnostic we hold; `revision` grows with each change (pull result ids use it)."""

    items: tuple[Item, ...] = ()
    revision: int = 0

    def for_uri(self, uri: str) -> tuple[Item, ...]:
        """The URI's diagnostics; the same error on the same span said by two origins (the
        explain command and `.jaxerr/last-run.txt` for one run) is shown once, the newest."""
        seen: set[tuple[Span, str, str | None]] = set()
        newest_first: list[Item] = []
        for item in reversed(self.items):
            key = (item.span, item.message, item.entry_id)
            if item.uri == uri and key not in seen:
                seen.add(key)
                newest_first.append(item)
        return tuple(reversed(newest_first))

    @property
    def uris(self) -> frozenset[str]:
        return frozenset(item.uri for item in self.items)

    def _with(self, items: Iterable[Item]) -> Store:
        return Store(tuple(items), self.revision + 1)

    def replace_origin(self, origin: str, items: Iterable[Item]) -> Store:
        """A newer traceback from the same origin replaces what that origin said before."""
        return self._with([*(i for i in self.items if i.origin != origin), *items])

    def without(self, uris: set[str]) -> Store:
        """Without the items on these URIs (cells of a notebook that closed)."""
        return self._with(i for i in self.items if i.uri not in uris)

    def clear(self) -> Store:
        return self._with(())

    def edited(self, uri: str, changes: Sequence[Change], lines: Sequence[str]) -> Store:
        """Follow edits to `uri` (changes in the order applied; `lines` = the text after them)."""
        mine = self.for_uri(uri)
        if not mine:
            return self
        kept = [moved for item in mine if (moved := follow(item, changes, lines)) is not None]
        if kept == list(mine):
            return self
        return self._with([*(i for i in self.items if i.uri != uri), *kept])


def follow(item: Item, changes: Sequence[Change], lines: Sequence[str]) -> Item | None:
    """Where the item's line went after the changes, or None when its text is gone."""
    line, slack = item.span.line, 0
    for change in changes:
        if change.start_line < 0:  # the whole document was replaced: search everywhere
            slack = len(lines)
            continue
        delta = change.text.count("\n") - (change.end_line - change.start_line)
        if line > change.end_line:
            line += delta
        elif line >= change.start_line:
            # The change touches the item's line: it moved by up to delta, or the text is gone.
            slack += abs(delta) + 1
    found = _nearest(lines, line, item.text, slack)
    if found is None:
        return None
    moved = span_of(lines[found], item.text, found)
    return item if moved == item.span else replace(item, span=moved)


def _nearest(lines: Sequence[str], line: int, text: str, slack: int) -> int | None:
    if 0 <= line < len(lines) and lines[line].strip() == text:
        return line
    for distance in range(1, slack + 1):
        for candidate in (line - distance, line + distance):
            if 0 <= candidate < len(lines) and lines[candidate].strip() == text:
                return candidate
    return None
