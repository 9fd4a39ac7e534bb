"""`dynamic-slice`: a window of static length at a traced start."""

from __future__ import annotations

import pytest

from tests.fixes.helpers import fixed, propose

SOURCE = """\
import jax


@jax.jit
def window(signal, start):
    w = signal[start:start + 3]  # the window
    return w / w.sum()
"""


def test_window_becomes_dynamic_slice_in_dim() -> None:
    assert fixed("dynamic-slice", SOURCE, "w = signal") == SOURCE.replace(
        "signal[start:start + 3]", "jax.lax.dynamic_slice_in_dim(signal, start, 3)"
    )
    found = propose("dynamic-slice", SOURCE, "w = signal")
    assert found is not None and not found.safe and "shifts the window" in found.title


def test_uses_the_files_alias_and_keeps_attribute_bases() -> None:
    source = "from jax import lax\n\ndef f(self, i):\n    return self.buf[i:i+2] * 2\n"
    assert fixed("dynamic-slice", source, "return") == source.replace(
        "self.buf[i:i+2]", "lax.dynamic_slice_in_dim(self.buf, i, 2)"
    )


def test_adds_import_jax_when_missing() -> None:
    source = "def f(x, i):\n    return x[i:i + 4]\n"
    assert fixed("dynamic-slice", source, "return") == (
        "import jax\ndef f(x, i):\n    return jax.lax.dynamic_slice_in_dim(x, i, 4)\n"
    )


@pytest.mark.parametrize(
    "expr",
    ["x[i:j]", "x[i:i + n]", "x[i:i + 3:2]", "x[i:k + 3]", "x[i]", "f()[i:i + 3]", "x[a, i:i + 3]"],
)
def test_not_offered_without_a_static_length(expr: str) -> None:
    assert fixed("dynamic-slice", f"import jax\ny = {expr}\n", "y =") is None
