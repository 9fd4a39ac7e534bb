"""A symbolic dimension (`jax.export` shape polymorphism) where Python needs an int, raised by real
JAX (CPU) here: every Python wording that names `_DimExpr` reaches
`symbolic-dimension-not-integer`; the same sentences about Python's own types do not, and JAX's own
`InconclusiveDimensionOperation` keeps its entries."""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
np = pytest.importorskip("numpy")
export = pytest.importorskip("jax.export")

ENTRY = "symbolic-dimension-not-integer"
PASTES = Path(__file__).parents[1] / "field" / "pastes"

# Each uses x.shape[0] (a `_DimExpr` under a symbolic shape) where Python or NumPy needs a number.
CASES: dict[str, Callable[[object], object]] = {
    "range": lambda x: [i for i in range(x.shape[0])],  # type: ignore[attr-defined]
    "len": lambda x: len(x),  # type: ignore[arg-type]
    "np.zeros": lambda x: np.zeros(x.shape),  # type: ignore[attr-defined]
    "np.eye": lambda x: np.eye(x.shape[0]),  # type: ignore[attr-defined]
    "float": lambda x: float(x.shape[0]),  # type: ignore[attr-defined]
    "list index": lambda x: [1, 2, 3][x.shape[0]],  # type: ignore[attr-defined]
    "sequence repeat": lambda x: "a" * x.shape[0],  # type: ignore[attr-defined]
    "math.log": lambda x: math.log(x.shape[0]),  # type: ignore[attr-defined]
    "np.sqrt": lambda x: np.sqrt(x.shape[0]),  # type: ignore[attr-defined]
    "round": lambda x: round(x.shape[0]),  # type: ignore[attr-defined]
    "bytes": lambda x: bytes(x.shape[0]),  # type: ignore[attr-defined]
}


def _export(function: Callable[[object], object]) -> None:
    batch = export.symbolic_shape("b")
    export.export(jax.jit(function))(jax.ShapeDtypeStruct(batch, jnp.float32))


@pytest.mark.parametrize("name", list(CASES))
def test_python_words_a_symbolic_dimension(matcher: Matcher, name: str) -> None:
    with pytest.raises(TypeError) as raised:
        _export(CASES[name])
    assert "_DimExpr" in str(raised.value)
    text = "".join(traceback.format_exception(raised.value))
    found = explain_text(text, matcher)[-1]
    assert found.match is not None and found.match.entry.id == ENTRY, text[-300:]
    assert found.match.by == "message"


def test_jax_own_inconclusive_wording_keeps_its_entries(matcher: Matcher) -> None:
    from jax._src.export.shape_poly import InconclusiveDimensionOperation

    with pytest.raises(InconclusiveDimensionOperation) as raised:
        _export(lambda x: int(x.shape[0]))  # type: ignore[attr-defined]
    text = "".join(traceback.format_exception(raised.value))
    found = explain_text(text, matcher)[-1]
    assert found.match is not None and found.match.entry.id != ENTRY


@pytest.mark.parametrize(
    "line",
    [
        "TypeError: 'float' object cannot be interpreted as an integer",
        "TypeError: list indices must be integers or slices, not str",
        "TypeError: can't multiply sequence by non-int of type 'float'",
        "TypeError: must be real number, not str",
        "AttributeError: 'Quantity' object has no attribute 'shape'",
    ],
)
def test_the_same_sentences_about_other_types(matcher: Matcher, line: str) -> None:
    found = explain_text(line, matcher)[-1]
    assert found.match is None or found.match.entry.id != ENTRY


def test_the_field_paste_and_older_jax2tf_wording(matcher: Matcher) -> None:
    paste = (PASTES / "548-jax-22489-dimexpr-not-integer-digitize.txt").read_text()
    found = explain_text(paste, matcher)[-1]
    assert found.traceback.exception == "TypeError"
    assert found.match is not None and found.match.entry.id == ENTRY
    # jax2tf's class before `_DimExpr` (jax#7398)
    older = "TypeError: unsupported operand type(s) for /: '_DimPolynomial' and 'int'"
    found = explain_text(older, matcher)[-1]
    assert found.match is not None and found.match.entry.id == ENTRY
    assert found.match.fields.get("operator") == "/"
