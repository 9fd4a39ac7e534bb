"""Fixes read how the file uses what they change: its calls' arguments, the body's uses."""

from __future__ import annotations

from tests.fixes.helpers import fixed, propose

TWO_SIZES = """\
import jax
import jax.numpy as jnp


@jax.jit
def grid(n, m):
    return jnp.zeros((n, m))


print(grid(16, 8).shape)
"""


def test_every_size_passed_a_literal_is_marked_at_once() -> None:
    after = fixed("mark-static", TWO_SIZES, "return jnp.zeros", {"name": "n"})
    assert after is not None
    assert '@partial(jax.jit, static_argnames=("n", "m"))' in after


def test_inline_jit_call_marks_both_sizes() -> None:
    source = TWO_SIZES.replace("@jax.jit\n", "").replace("grid(16, 8)", "jax.jit(grid)(16, 8)")
    after = fixed("mark-static", source, "jax.jit(grid)(16, 8)", {"name": "n"})
    assert after is not None
    assert 'jax.jit(grid, static_argnames=("n", "m"))(16, 8)' in after


ARRAY_BRANCH = """\
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    if x > 0:
        return x
    return jnp.zeros_like(x)


xs = jnp.array([-1.0, 2.0])
print(relu(xs))
"""


def test_no_static_for_a_parameter_the_file_passes_an_array() -> None:
    assert propose("mark-static", ARRAY_BRANCH, "if x > 0") is None
    assert propose("mark-static", ARRAY_BRANCH, "if x > 0", {"name": "x"}) is None


def test_a_scalar_literal_argument_is_still_marked_static() -> None:
    source = ARRAY_BRANCH.replace("print(relu(xs))", "print(relu(3.0))")
    proposal = propose("mark-static", source, "if x > 0")
    assert proposal is not None and proposal.safe
    assert proposal.title == "Mark 'x' as static (static_argnames)"


SPLIT = """\
import jax
import jax.numpy as jnp


@jax.jit
def chunk_sums(x, n):
    return jnp.stack([part.sum() for part in jnp.split(x, n)])


print(chunk_sums(jnp.arange(12.0), 3))
"""


def test_the_parameter_on_the_line_the_file_passes_a_literal() -> None:
    after = fixed("mark-static", SPLIT, "jnp.split(x, n)")
    assert after is not None and 'static_argnames=("n",)' in after


STRING_ARG = """\
import jax
import jax.numpy as jnp


@jax.jit
def activate(x, kind):
    if kind == "relu":
        return jnp.maximum(x, 0.0)
    return jnp.tanh(x)


x = jnp.array([-1.0, 0.5, 2.0])
print(activate(x, "relu"))
"""


def test_string_argument_at_the_call_is_marked_static_at_the_jit() -> None:
    proposal = propose("mark-static-at-call", STRING_ARG, 'activate(x, "relu")', {"name": "kind"})
    assert proposal is not None and proposal.safe
    after = fixed("mark-static-at-call", STRING_ARG, 'activate(x, "relu")', {"name": "kind"})
    assert after is not None and '@partial(jax.jit, static_argnames=("kind",))' in after


def test_every_string_argument_in_one_edit() -> None:
    source = """\
import jax
import jax.numpy as jnp


def combine(x, how, norm):
    y = jnp.sum(x) if how == "sum" else jnp.max(x)
    return y / x.size if norm == "mean" else y


print(jax.jit(combine)(jnp.arange(4.0), "sum", "mean"))
"""
    after = fixed("mark-static", source, "print(jax.jit(combine)", {"name": "how"})
    assert after is not None
    assert 'jax.jit(combine, static_argnames=("how", "norm"))' in after


def test_no_static_at_call_without_a_jitted_callee() -> None:
    assert (
        propose("mark-static-at-call", "def f(x, k):\n    return x\n\nf(1, 'a')\n", "f(1") is None
    )


METHOD = """\
import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @jax.jit
    def apply(self, x):
        return x * self.factor


s = Scaler(3.0)
print(s.apply(jnp.arange(4.0)))
"""


def test_jit_method_gets_static_self() -> None:
    proposal = propose("jit-method-static-self", METHOD, "print(s.apply(")
    assert proposal is not None and proposal.safe
    after = fixed("jit-method-static-self", METHOD, "print(s.apply(")
    assert after is not None and "@partial(jax.jit, static_argnums=(0,))" in after


def test_jit_method_on_a_mutating_class_is_not_safe() -> None:
    source = METHOD.replace(
        "        return x * self.factor\n",
        "        return x * self.factor\n\n    def grow(self):\n        self.factor = 2 * self.factor\n",
    )
    proposal = propose("jit-method-static-self", source, "print(s.apply(")
    assert proposal is not None and not proposal.safe
    assert "stale" in proposal.title


def test_jit_method_on_an_unhashable_dataclass_is_not_offered() -> None:
    source = METHOD.replace("class Scaler:", "@dataclasses.dataclass\nclass Scaler:").replace(
        "import jax\n", "import dataclasses\nimport jax\n", 1
    )
    assert propose("jit-method-static-self", source, "print(s.apply(") is None
