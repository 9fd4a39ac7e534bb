"""Notebook cells as traceback locations: which cell of which notebook ran a printed frame.

A frame names a cell by its execution count (`Cell In[3]`, `Input In [3]`,
`<ipython-input-3-5f2b…>`, Colab's `/tmp/ipython-input-3-….py`) or only by a temporary file
(`/tmp/ipykernel_P/H.py`, Colab 2025's `/tmp/ipython-input-H.py`). The count picks the cell when
the notebook records it and the cell still holds the printed source; otherwise the cell whose
text holds the frame's source line (or, with no source printed, the `def` of the function JAX
says it was tracing) is the one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# The execution count a cell label or pseudo-file carries.
_COUNTED = (
    re.compile(r"^(?:Cell|Input) In ?\[(?P<n>\d+)\]$"),
    re.compile(r"^<ipython-input-(?P<n>\d+)-[^>]*>$"),
    re.compile(r"(?:^|[/\\])ipython-input-(?P<n>\d+)-[\w-]+\.py$"),
)
# A decorated function's first line (what JAX names) is up to a few lines above its `def`.
DECORATOR_LINES = 5


@dataclass(frozen=True)
class Cell:
    """A notebook cell as the locator needs it; `index` counts every cell, markdown included."""

    index: int
    source: str
    execution_count: int | None = None
    code: bool = True
    uri: str = ""  # the cell's document URI when an editor has the notebook open

    @property
    def lines(self) -> list[str]:
        return self.source.splitlines()


@dataclass(frozen=True)
class Notebook:
    path: str  # absolute path of the .ipynb (or the URI's path for an open notebook)
    cells: tuple[Cell, ...]

    @property
    def code_cells(self) -> tuple[Cell, ...]:
        return tuple(cell for cell in self.cells if cell.code)


@dataclass(frozen=True)
class CellPlace:
    notebook: Notebook
    cell: int  # index in notebook.cells
    line: int  # 1-based, in the cell


def execution_count(path: str) -> int | None:
    """The execution count a printed cell name carries, or None (ipykernel temp files)."""
    for pattern in _COUNTED:
        found = pattern.search(path)
        if found:
            return int(found.group("n"))
    return None


def find_cell(
    notebooks: Sequence[Notebook],
    printed: str,
    line: int,
    source: str = "",
    function: str = "",
) -> CellPlace | None:
    """The cell (and line in it) that ran a frame printed as `printed`, line `line`."""
    wanted = source.strip()
    count = execution_count(printed)
    if count is not None:
        counted = [
            (notebook, cell)
            for notebook in notebooks
            for cell in notebook.code_cells
            if cell.execution_count == count
        ]
        for notebook, cell in counted:
            found = _line_in(cell, line, wanted, function)
            if found is not None and (wanted or function or len(counted) == 1):
                return CellPlace(notebook, cell.index, found)
    if not wanted and not function:
        return None
    # No count, or the counted cell no longer holds the line: search the cells' text, in the
    # first notebook (the order says which the caller trusts most) that has the line.
    for notebook in notebooks:
        best: tuple[int, CellPlace] | None = None
        for cell in notebook.code_cells:
            found = _line_in(cell, line, wanted, function)
            if found is not None and (best is None or abs(found - line) < best[0]):
                best = (abs(found - line), CellPlace(notebook, cell.index, found))
        if best is not None:
            return best[1]
    return None


def _line_in(cell: Cell, line: int, wanted: str, function: str) -> int | None:
    """The line of `cell` that holds the printed source (nearest to `line`), else None."""
    lines = cell.lines
    if wanted:
        found = [n for n, text in enumerate(lines, start=1) if _same(text.strip(), wanted)]
        return min(found, key=lambda n: abs(n - line)) if found else None
    if function:
        definition = re.compile(rf"^\s*(?:async\s+)?def\s+{re.escape(function)}\s*\(")
        for n in range(line, min(len(lines), line + DECORATOR_LINES) + 1):
            if 1 <= n <= len(lines) and definition.match(lines[n - 1]):
                return line
        return None
    return line if 1 <= line <= len(lines) else None


def _same(actual: str, printed: str) -> bool:
    """As for files: the printed source is the line, or its start (IPython drops comments)."""
    return actual == printed or (len(printed) >= 6 and actual.startswith(printed))
