"""Notebooks executed by a real kernel (scripts/make_notebooks.py) and helpers to read them."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.tracebacks.ipynb import ParsedNotebook, read_notebook

DATA = Path(__file__).resolve().parent / "data"


def saved(name: str) -> ParsedNotebook:
    parsed = read_notebook(DATA / f"{name}.ipynb")
    assert parsed is not None
    return parsed


@pytest.fixture
def data_dir() -> Path:
    return DATA
