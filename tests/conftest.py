"""Fixtures shared across test folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.catalog import load_catalog
from jaxerr_ls.site.build import build_site


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole catalog's site, built once per session: the build tests read it, the browser
    test serves it (nobody writes into it)."""
    out = tmp_path_factory.mktemp("site")
    build_site(load_catalog(), out)
    return out
