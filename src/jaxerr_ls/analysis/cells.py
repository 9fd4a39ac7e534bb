"""A notebook's code cells as one program: joined in notebook order, with a map from each line of
the program back to its cell, so the tracing model sees `def f` in the first cell when the third
jits it.

Pure: no LSP, no I/O. IPython syntax (`%magic`, `!shell`, `x = !cmd`, `name?`, `%%cell magics`)
is blanked so the rest parses; a cell that still does not parse is left out (its lines stay, empty,
so the map holds) and never breaks the others. Lines split where `ast` splits them (\\n, \\r\\n,
\\r), so an `ast` line number of the program is a line of the map.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

# Cell magics whose body IPython runs as Python (only their first line is not).
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_MAGIC = re.compile(r"^\s*[%!]")
_ASSIGNED_MAGIC = re.compile(r"^\s*[\w.\[\], ]+=\s*[%!]")
_HELP = re.compile(r"^\s*\?{0,2}[\w.]+\?{0,2}\s*$")
_CELL_MAGIC = re.compile(r"^\s*%%(?P<name>\w+)")
# What a blanked line becomes: a statement, so a magic that was a block's only line keeps the
# block valid (`for ...:\n    %time f()`).
_PLACEHOLDER = "pass"


def split_lines(source: str) -> list[str]:
    """The lines of `source` as `ast` numbers them (no trailing empty line after a final break)."""
    lines = _LINE_BREAK.split(source)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _parses(lines: Sequence[str]) -> bool:
    try:
        ast.parse("\n".join(lines) + "\n")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _is_help(line: str) -> bool:
    stripped = line.strip()
    return bool(_HELP.match(line)) and (stripped.startswith("?") or stripped.endswith("?"))


def _blank(line: str) -> str:
    indent = line[: len(line) - len(line.lstrip())]
    return indent + _PLACEHOLDER


class _Continuation:
    """Whether the next line continues a statement (open bracket, triple-quoted string, trailing
    backslash): IPython reads a magic only at the start of a statement, and so do we."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote: str | None = None  # the open triple quote
        self.backslash = False

    @property
    def inside(self) -> bool:
        return self.depth > 0 or self.quote is not None or self.backslash

    def feed(self, line: str) -> None:
        index, quote = 0, self.quote
        while index < len(line):
            char = line[index]
            if quote is not None:
                if line.startswith(quote, index):
                    index += len(quote)
                    quote = None
                    continue
                index += 2 if char == "\\" else 1
                continue
            if char == "#":
                break
            if char in "'\"":
                triple = line[index : index + 3]
                quote = triple if triple in ('"""', "'''") else char
                index += len(quote)
                continue
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            index += 1
        # A one-quote string cannot span lines: it ends (unterminated) with the line.
        self.quote = quote if quote is not None and len(quote) == 3 else None
        self.backslash = line.rstrip().endswith("\\") and self.quote is None


def blank_ipython(lines: Sequence[str]) -> tuple[list[str], frozenset[int]] | None:
    """The cell's lines with IPython-only lines replaced by `pass`, and which lines were; None
    when the whole cell is not Python (a cell magic such as `%%bash`)."""
    out = list(lines)
    blanked: set[int] = set()
    first = next((i for i, text in enumerate(lines) if text.strip()), None)
    if first is not None:
        cell_magic = _CELL_MAGIC.match(lines[first])
        if cell_magic is not None:
            if cell_magic.group("name") not in _PYTHON_CELL_MAGICS:
                return None
            out[first] = _blank(lines[first])
            blanked.add(first)
    statement = _Continuation()
    magic_continues = False
    for index, text in enumerate(lines):
        if index in blanked:
            continue
        starts = not statement.inside
        if magic_continues or (
            starts and (_MAGIC.match(text) or _ASSIGNED_MAGIC.match(text) or _is_help(text))
        ):
            out[index] = "" if magic_continues else _blank(text)
            blanked.add(index)
            magic_continues = text.rstrip().endswith("\\")  # a magic continued on the next line
        else:
            magic_continues = False
            statement.feed(text)
    return out, frozenset(blanked)


@dataclass(frozen=True)
class CellSpan:
    """One cell's place in the program."""

    key: str  # the caller's name for the cell (its URI, or its index)
    start: int  # its first line in the program, 0-based
    lines: tuple[str, ...]  # its text, as written
    blanked: frozenset[int]  # its lines (0-based) replaced by `pass` (IPython syntax)
    included: bool  # False: it did not parse, its lines are empty in the program

    @property
    def end(self) -> int:
        return self.start + len(self.lines)

    def holds(self, line: int) -> bool:
        """Whether the program's `line` is this cell's own text, analysed as written."""
        inside = self.start <= line < self.end
        return self.included and inside and line - self.start not in self.blanked


@dataclass(frozen=True)
class JoinedCells:
    """The program (`source`) and where each of its lines comes from."""

    source: str
    cells: tuple[CellSpan, ...]

    def cell(self, key: str) -> CellSpan | None:
        return next((c for c in self.cells if c.key == key), None)

    def place(self, line: int) -> tuple[CellSpan, int] | None:
        """(cell, line in the cell) of the program's `line` when it is a cell's own text."""
        for cell in self.cells:
            if cell.holds(line):
                return cell, line - cell.start
        return None

    def program_line(self, key: str, line: int) -> int | None:
        """The program's line for `line` of cell `key`; None when that line was not analysed."""
        cell = self.cell(key)
        if cell is None or not cell.holds(cell.start + line):
            return None
        return cell.start + line

    def place_span(self, start: int, end: int, end_column: int) -> CellSpan | None:
        """The cell whose own text holds the program's lines `start`..`end` (an end at column 0 of
        the line after the cell's last is the cell's end), else None: an edit there would
        touch another cell or a line not analysed as written."""
        found = self.place(start)
        if found is None:
            return None
        cell = found[0]
        last = end - 1 if end_column == 0 and end > start else end
        if last == cell.end and end_column == 0:
            last = cell.end - 1
        if all(cell.holds(line) for line in range(start, last + 1)):
            return cell
        return None

    @property
    def unparsed(self) -> tuple[str, ...]:
        """The cells left out of the program because they do not parse (not those a cell magic
        such as `%%bash` says are not Python)."""
        left_out = (c for c in self.cells if not c.included and any(map(str.strip, c.lines)))
        return tuple(c.key for c in left_out if blank_ipython(c.lines) is not None)


def join_cells(cells: Sequence[tuple[str, str]]) -> JoinedCells:
    """(key, source) of the code cells, in notebook order -> one program and its map."""
    return _join(tuple(cells))


@lru_cache(maxsize=16)
def _join(cells: tuple[tuple[str, str], ...]) -> JoinedCells:
    program: list[str] = []
    spans: list[CellSpan] = []
    for key, source in cells:
        lines = split_lines(source)
        prepared: Sequence[str] | None = lines
        blanked: frozenset[int] = frozenset()
        if not _parses(lines):
            found = blank_ipython(lines)
            prepared, blanked = found if found is not None else (None, frozenset())
            if prepared is not None and not _parses(prepared):
                prepared = None
        spans.append(
            CellSpan(key, len(program), tuple(lines), blanked, included=prepared is not None)
        )
        program += prepared if prepared is not None else [""] * len(lines)
    return JoinedCells("\n".join(program) + "\n" if program else "", tuple(spans))
