"""Attributes JAX arrays and tracers lack, raised by real JAX (CPU) here: each reaches
`jax-array-has-no-attribute`; the same words about another type (Python's `float`, a NumPy
array) do not."""

from __future__ import annotations

import traceback
from collections.abc import Callable

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
np = pytest.importorskip("numpy")


def _torch_style(x: object) -> object:
    return x.numpy()  # type: ignore[attr-defined]


def _older_jax(x: object) -> object:
    return x.to_py()  # type: ignore[attr-defined]


CASES: list[tuple[str, Callable[[object], object]]] = [
    ("array", _torch_style),
    ("removed method", _older_jax),
    ("tracer", jax.jit(_torch_style)),
]


@pytest.mark.parametrize(("name", "function"), CASES, ids=[c[0] for c in CASES])
def test_a_missing_attribute_of_a_jax_value(
    matcher: Matcher, name: str, function: Callable[[object], object]
) -> None:
    with pytest.raises(AttributeError) as raised:
        function(jnp.ones(3))
    text = "".join(traceback.format_exception(raised.value))
    found = explain_text(text, matcher)[-1]
    assert found.match is not None, text[-400:]
    assert found.match.entry.id == "jax-array-has-no-attribute"


def test_the_same_words_about_other_types(matcher: Matcher) -> None:
    for value in (1.5, np.ones(3)):
        with pytest.raises(AttributeError) as raised:
            value.numpy()  # type: ignore[union-attr]
        text = "".join(traceback.format_exception(raised.value))
        found = explain_text(text, matcher)[-1]
        assert found.match is None or found.match.entry.id != "jax-array-has-no-attribute"


def _as_key(x: object) -> object:
    return {x: 1}


@pytest.mark.parametrize(
    "function", [_as_key, jax.jit(lambda x: _as_key(x) and x)], ids=["array", "tracer"]
)
def test_a_jax_value_used_as_a_key(matcher: Matcher, function: Callable[[object], object]) -> None:
    with pytest.raises(TypeError) as raised:
        function(jnp.ones(3))
    text = "".join(traceback.format_exception(raised.value))
    found = explain_text(text, matcher)[-1]
    assert found.match is not None and found.match.entry.id == "jax-array-unhashable", text[-300:]
    # Python's same words about its own types name nothing of JAX's.
    for value in ([1], np.ones(3)):
        with pytest.raises(TypeError) as other:
            _as_key(value)
        text = "".join(traceback.format_exception(other.value))
        again = explain_text(text, matcher)[-1]
        assert again.match is None or again.match.entry.id != "jax-array-unhashable"


def test_at_on_a_numpy_array(matcher: Matcher) -> None:
    with pytest.raises(AttributeError) as raised:
        np.zeros(3).at[0].set(1.0)  # type: ignore[attr-defined]
    text = "".join(traceback.format_exception(raised.value))
    found = explain_text(text, matcher)[-1]
    assert found.match is not None and found.match.entry.id == "numpy-array-at"
    with pytest.raises(AttributeError) as other:
        np.zeros(3).att  # type: ignore[attr-defined]  # noqa: B018
    text = "".join(traceback.format_exception(other.value))
    again = explain_text(text, matcher)[-1]
    assert again.match is None or again.match.entry.id != "numpy-array-at"
