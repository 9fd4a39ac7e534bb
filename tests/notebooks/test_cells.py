"""Frames printed by IPython, Jupyter, ipykernel and Colab -> the notebook cell that ran them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jaxerr_ls.tracebacks import Frame, Traceback, parse_tracebacks
from jaxerr_ls.tracebacks.cells import Cell, Notebook, execution_count, find_cell
from jaxerr_ls.tracebacks.ipynb import parse_notebook
from jaxerr_ls.tracebacks.locate import Workspace, locate
from tests.notebooks.conftest import DATA, saved

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize(
    ("printed", "count"),
    [
        ("Cell In[12]", 12),
        ("Input In [4]", 4),
        ("<ipython-input-3-5f2b0c3e1a7d>", 3),
        ("/tmp/ipython-input-7-1234567.py", 7),
        ("/tmp/ipykernel_18542/1102459760.py", None),
        ("/tmp/ipython-input-3692169468.py", None),
    ],
)
def test_execution_count(printed: str, count: int | None) -> None:
    assert execution_count(printed) == count


def notebook(*cells: tuple[str, int | None], path: str = "/w/a.ipynb") -> Notebook:
    return Notebook(path, tuple(Cell(i, src, n) for i, (src, n) in enumerate(cells)))


TWO = notebook(("import jax", 5), ("def f(x):\n    if x > 0:\n        return x", 2), ("f(1)", 7))


def test_count_picks_the_cell_and_a_stale_count_falls_back_to_the_text() -> None:
    place = find_cell([TWO], "Cell In[2]", 2, "if x > 0:")
    assert place is not None and (place.cell, place.line) == (1, 2)
    # The notebook was re-run since: In[9] is no cell's count, the text still finds the line.
    place = find_cell([TWO], "Cell In[9]", 2, "if x > 0:")
    assert place is not None and (place.cell, place.line) == (1, 2)
    # The line was edited away: no cell.
    assert find_cell([TWO], "Cell In[2]", 2, "if x < 0:") is None


def test_ipykernel_file_is_found_by_its_source_line() -> None:
    place = find_cell([TWO], "/tmp/ipykernel_1/99.py", 1, "f(1)")
    assert place is not None and (place.cell, place.line) == (2, 1)


def test_count_without_source_only_when_one_notebook_has_it() -> None:
    other = notebook(("x = 1\ny = 2", 2), path="/w/b.ipynb")
    only = find_cell([TWO], "<ipython-input-2-ab>", 3)
    assert only is not None and (only.cell, only.line) == (1, 3)
    assert find_cell([TWO, other], "<ipython-input-2-ab>", 1) is None


def test_traced_function_named_by_jax_is_found_by_its_def() -> None:
    decorated = notebook(("import jax", 1), ("@jax.jit\ndef clip(x):\n    return x", 2))
    place = find_cell([decorated], "/tmp/ipykernel_5/77.py", 1, function="clip")
    assert place is not None and (place.cell, place.line) == (1, 1)
    assert find_cell([decorated], "/tmp/ipykernel_5/77.py", 1, function="other") is None


@pytest.mark.parametrize("colour", [True, False])
def test_saved_outputs_locate_their_cells(colour: bool) -> None:
    """Real outputs (ANSI as Jupyter saved them, and stripped): the deepest user frame's cell."""
    expected = {"tracer_bool": (2, 3), "immutable_set": (1, 2), "out_of_order": (3, 3)}
    for name, (cell, line) in expected.items():
        parsed = saved(name)
        (error,) = parsed.errors
        text = error.text if colour else ANSI.sub("", error.text)
        (tb,) = parse_tracebacks(text)
        workspace = Workspace(DATA, (parsed.notebook,))
        location = locate(tb, workspace)
        assert location is not None, name
        assert (location.path, location.cell, location.line) == (
            str(DATA / f"{name}.ipynb"),
            cell,
            line,
        )
        assert location.to_json() == {
            "path": str(DATA / f"{name}.ipynb"),
            "cell": cell,
            "line": line,
            "in_workspace": True,
        }


def test_out_of_order_counts_are_not_positions() -> None:
    """In `out_of_order`, In[2] is the fourth cell: the count, not the position, decides."""
    cells = saved("out_of_order").notebook.cells
    assert [c.execution_count for c in cells] == [3, None, 4, 2]


def test_printed_traceback_with_ipykernel_files_is_found_from_the_root() -> None:
    """A traceback Python printed inside a cell names /tmp/ipykernel_P/H.py files; searching the
    root's notebooks finds the cell by its text."""
    printed = saved("printed_traceback")
    stream = _stream(DATA / "printed_traceback.ipynb", 2)
    assert "/tmp/ipykernel_" in stream
    (tb,) = parse_tracebacks(stream)
    location = locate(tb, Workspace(DATA))
    assert location is not None and location.cell == 1 and location.line == 2
    assert location.path == printed.notebook.path


def test_message_location_of_a_traced_function_in_a_cell() -> None:
    """JAX hid every frame; its message still names the ipykernel file and the traced function."""
    parsed = saved("tracer_bool")
    (error,) = parsed.errors
    assert "/tmp/ipykernel_" in error.evalue
    tb = Traceback(error.ename, error.evalue, (Frame("/x/site-packages/jax/_src/core.py", 9),))
    location = locate(tb, Workspace(DATA, (parsed.notebook,)))
    assert location is not None and (location.cell, location.line) == (2, 1)


def test_cell_without_notebooks_is_still_unlocated() -> None:
    (tb,) = parse_tracebacks(saved("immutable_set").errors[0].text)
    assert locate(tb, None) is None
    assert locate(tb, Workspace(Path("/nonexistent-root"))) is None


def test_not_a_notebook() -> None:
    assert parse_notebook("{", "/x.ipynb") is None
    assert parse_notebook('{"cells": 3}', "/x.ipynb") is None
    odd = parse_notebook('{"cells": [1, {"cell_type": "code", "outputs": [{}]}]}', "/x.ipynb")
    assert odd is not None and len(odd.notebook.cells) == 2 and odd.errors == ()


def _stream(path: Path, cell: int) -> str:
    """The cell's printed text (nbformat stores it as a list of lines)."""
    import json

    outputs = json.loads(path.read_text())["cells"][cell]["outputs"]
    return "".join("".join(o["text"]) for o in outputs if o["output_type"] == "stream")
