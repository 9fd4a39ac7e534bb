"""NumPy's removed names (1.24's type aliases, 2.0's functions and constants) as code written for
an older NumPy meets them, and only those: a misspelt NumPy name is no removal."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from tests.field.measure_pastes import paste_text


def test_numpy_2s_own_message(matcher: Matcher) -> None:
    # meow#43: NumPy 2.0's message for `np.float_`.
    [found] = explain_text(paste_text("1337"), matcher)
    assert found.match is not None and found.match.entry.id == "numpy-name-removed"
    assert found.match.fields["name"] == "float_"


@pytest.mark.parametrize(
    ("message", "removed"),
    [
        ("module 'numpy' has no attribute 'object'.\n`np.object` was a deprecated alias", True),
        ("module 'numpy' has no attribute 'product'", True),
        ("module 'numpy' has no attribute 'integer_like'", False),
        ("module 'numpy' has no attribute 'int_like'", False),
    ],
)
def test_only_names_numpy_removed(matcher: Matcher, message: str, removed: bool) -> None:
    found = matcher.match("AttributeError", message)
    assert (found is not None and found.entry.id == "numpy-name-removed") == removed
