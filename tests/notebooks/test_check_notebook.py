"""`jaxerr-ls check NOTEBOOK.ipynb`: the code cells checked as one program, each finding in its
cell. `one_program` was executed by a real kernel (scripts/make_notebooks.py): the errors it saved
are where the check predicts them, before anything runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import explain_notebook
from jaxerr_ls.shells.cli.main import main

from .conftest import DATA, saved


def test_findings_name_their_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one_program.ipynb"
    shutil.copy(DATA / "one_program.ipynb", path)
    assert main(["check", "--json", str(path)]) == 1
    captured = capsys.readouterr()
    items = json.loads(captured.out)
    assert [(i["cell"], i["line"], i["column"], i["entry"]) for i in items] == [
        (2, 2, 20, "tracer-integer-conversion"),  # `range(n)` in `steps`, jitted in the next cell
        (5, 3, 8, "tracer-bool-conversion"),  # the `if` of `relu`; `quiet`'s is ignored
    ]
    assert set(items[0]) == {"path", "cell", "line", "column", "entry", "message"}
    source = saved("one_program").notebook.cells[2].source.splitlines()
    assert source[1][:20].endswith("range(n")  # on `n`, the traced argument
    # The cell that does not parse is said, and did not stop the cells after it.
    assert "cell 5 does not parse" in captured.err

    assert main(["check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{path}:cell 3:2:20: tracer-integer-conversion ")
    assert lines[1].startswith(f"{path}:cell 6:3:8: tracer-bool-conversion ")


def test_the_kernel_raised_what_check_predicted() -> None:
    """Every catalogued error the kernel saved is located on a cell and line the check flagged,
    with the same entry."""
    notebook = DATA / "one_program.ipynb"
    from jaxerr_ls.shells.cli.check import check_notebook

    checked = check_notebook(str(notebook))
    predicted = {
        (cell, f.line + 1, f.entry) for cell, f in zip(checked.cells, checked.findings, strict=True)
    }
    raised = set()
    for explanation in explain_notebook(saved("one_program"), Matcher(load_catalog()), None):
        data = explanation.to_json()
        if data["entry"] is not None and data["location"] is not None:
            location = data["location"]
            raised.add((location["cell"], location["line"], data["entry"]["id"]))
    assert raised == predicted and len(raised) == 2


def test_directories_include_notebooks_and_fix_leaves_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(DATA / "one_program.ipynb", tmp_path / "one_program.ipynb")
    (tmp_path / ".ipynb_checkpoints").mkdir()
    shutil.copy(DATA / "one_program.ipynb", tmp_path / ".ipynb_checkpoints" / "copy.ipynb")
    before = (tmp_path / "one_program.ipynb").read_bytes()
    assert main(["check", "--json", "--fix", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert {i["path"] for i in json.loads(captured.out)} == {str(tmp_path / "one_program.ipynb")}
    assert "not fixed" in captured.err
    assert (tmp_path / "one_program.ipynb").read_bytes() == before


def test_not_a_notebook_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.ipynb"
    path.write_text("{not json")
    assert main(["check", str(path)]) == 2
    assert "not a notebook" in capsys.readouterr().err
