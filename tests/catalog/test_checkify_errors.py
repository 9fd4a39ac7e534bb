"""checkify's failures, raised by real JAX (CPU) here: each reaches `checkify-check-failed`,
never XLA's runtime family (checkify's `JaxRuntimeError` is its own `ValueError`)."""

from __future__ import annotations

import traceback
from collections.abc import Callable

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
checkify = pytest.importorskip("jax.experimental.checkify")


def _positive(x: object) -> object:
    checkify.check(jnp.all(x > 0), "x needs to be positive, got {}", x)
    return x


def _nan(x: object) -> object:
    return jnp.log(x)


def _out_of_bounds(x: object) -> object:
    return x[5]


def _divide(x: object) -> object:
    return x // jnp.array([0, 1, 2])


CASES: list[tuple[str, Callable[[object], object], object]] = [
    ("user check", _positive, checkify.user_checks),
    ("nan", _nan, checkify.nan_checks),
    ("index", _out_of_bounds, checkify.index_checks),
    ("division", _divide, checkify.div_checks),
]
# checkify's division check says "division by zero", Python's own words: no entry claims them.
NAMED_BY_WORDS = {"user check", "nan", "index"}


@pytest.mark.parametrize(("name", "function", "errors"), CASES, ids=[c[0] for c in CASES])
def test_a_failed_check_is_explained(
    matcher: Matcher, name: str, function: Callable[[object], object], errors: object
) -> None:
    checked = jax.jit(checkify.checkify(function, errors=errors))
    err, _ = checked(jnp.array([-1, 2, 3]) if name != "nan" else jnp.array([-1.0, 2.0]))
    with pytest.raises(ValueError) as raised:
        err.throw()
    text = "".join(traceback.format_exception(raised.value))
    found = explain_text(text, matcher)[-1]
    assert found.traceback.exception.endswith("JaxRuntimeError"), text[-300:]
    if name in NAMED_BY_WORDS:
        assert found.match is not None, found.traceback.message
        assert found.match.entry.id == "checkify-check-failed"
    else:  # never explained as XLA's runtime error of the same class name
        assert found.match is None or not found.match.entry.id.startswith("xla-")
