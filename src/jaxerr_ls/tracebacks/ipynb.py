"""`.ipynb` files (nbformat 4 JSON) -> cells and their saved error outputs. Only `json` is used:
a notebook is read the way Jupyter saves it, and anything malformed reads as no notebook."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jaxerr_ls.tracebacks.cells import Cell, Notebook

# Notebooks larger than this (huge image outputs) are skipped when searching a workspace.
MAX_BYTES = 50_000_000


@dataclass(frozen=True)
class ErrorOutput:
    """One `output_type: "error"` output as Jupyter saved it."""

    cell: int  # index in the notebook's cells
    ename: str
    evalue: str
    traceback: tuple[str, ...]  # lines with ANSI colour, as saved

    @property
    def text(self) -> str:
        """The traceback as the kernel printed it; the exception line alone when none was saved."""
        if self.traceback:
            return "\n".join(self.traceback)
        return f"{self.ename}: {self.evalue}"


@dataclass(frozen=True)
class ParsedNotebook:
    notebook: Notebook
    errors: tuple[ErrorOutput, ...]


def _text(value: Any) -> str:
    """nbformat stores multi-line strings as a string or a list of lines."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(part for part in value if isinstance(part, str))
    return ""


def parse_notebook(text: str, path: str) -> ParsedNotebook | None:
    """The notebook in `text` (its cells and error outputs), or None when it is not one."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        return None
    cells: list[Cell] = []
    errors: list[ErrorOutput] = []
    for index, raw in enumerate(data["cells"]):
        if not isinstance(raw, dict):
            raw = {}
        code = raw.get("cell_type") == "code"
        count = raw.get("execution_count")
        cells.append(
            Cell(
                index=index,
                source=_text(raw.get("source")),
                execution_count=count if isinstance(count, int) else None,
                code=code,
            )
        )
        outputs = raw.get("outputs")
        for output in outputs if code and isinstance(outputs, list) else []:
            if isinstance(output, dict) and output.get("output_type") == "error":
                lines = output.get("traceback")
                errors.append(
                    ErrorOutput(
                        cell=index,
                        ename=str(output.get("ename") or ""),
                        evalue=str(output.get("evalue") or ""),
                        traceback=tuple(
                            str(line) for line in (lines if isinstance(lines, list) else [])
                        ),
                    )
                )
    return ParsedNotebook(Notebook(path, tuple(cells)), tuple(errors))


def read_notebook(path: Path) -> ParsedNotebook | None:
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return None
    return parse_notebook(text, str(path.resolve()))
