"""What the catalog's tests share: one matcher over the shipped catalog per module."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(load_catalog())
