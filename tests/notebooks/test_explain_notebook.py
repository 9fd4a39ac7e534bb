"""`jaxerr-ls explain NOTEBOOK.ipynb`: every saved error output, explained and located in its cell."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.notebooks.conftest import DATA

ROOT = Path(__file__).resolve().parents[2]


def jaxerr(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def test_json_names_entry_and_cell_of_every_error_output() -> None:
    expected = {
        "tracer_bool": ("TracerBoolConversionError", "tracer-bool-conversion", 2, 3),
        "immutable_set": ("TypeError", "immutable-array-item-assignment", 1, 2),
        "out_of_order": ("TypeError", "broadcast-op-incompatible-shapes", 3, 3),
    }
    for name, (exception, entry, cell, line) in expected.items():
        result = jaxerr("explain", str(DATA / f"{name}.ipynb"), "--json")
        assert result.returncode == 0, result.stderr
        (tb,) = json.loads(result.stdout)["tracebacks"]
        assert tb["exception"] == exception
        assert tb["entry"]["id"] == entry
        assert tb["location"] == {
            "path": str(DATA / f"{name}.ipynb"),
            "cell": cell,
            "line": line,
            "in_workspace": True,
        }


def test_human_output_names_the_cell_and_its_line() -> None:
    result = jaxerr("explain", str(DATA / "immutable_set.ipynb"))
    assert result.returncode == 0, result.stderr
    assert "immutable_set.ipynb, cell 2, line 2" in result.stdout  # cells counted from 1
    assert "x[0] = 1.0" in result.stdout
    assert "[immutable-array-item-assignment]" in result.stdout


def test_notebook_without_errors_explains_nothing() -> None:
    result = jaxerr("explain", str(DATA / "printed_traceback.ipynb"), "--json")
    assert result.returncode == 0 and json.loads(result.stdout) == {"tracebacks": []}


def test_broken_notebook_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.ipynb"
    broken.write_text('{"cells": [')
    result = jaxerr("explain", str(broken))
    assert result.returncode == 2
    assert "is not a notebook" in result.stderr and "Traceback" not in result.stderr
