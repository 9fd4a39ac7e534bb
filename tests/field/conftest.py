"""One measured run of every field program per session, shared by the field tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.field.measure import Measured, measure


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[Measured]:
    pytest.importorskip("jax", reason="needs JAX installed")
    scratch: Path = tmp_path_factory.mktemp("field")
    return list(measure(scratch))
