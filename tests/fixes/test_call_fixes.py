"""The call-rewriting fixes: grad literals, static lists, seeds, has_aux, asarray, lax, split,
jacobian, and Mosaic GPU refs."""

from __future__ import annotations

import pytest

from tests.fixes.helpers import at_cursor, fixed, propose

GRAD = """\
import jax


def loss(w):
    return w * w, w


g = jax.grad(loss)
print(g(3))
print(jax.grad(loss, argnums=(0, 1))(3, -4, 5))
"""


# --- int-to-float-literal ----------------------------------------------------------------------


def test_int_literal_through_a_named_grad() -> None:
    assert fixed("int-to-float-literal", GRAD, "print(g(3))") == GRAD.replace(
        "print(g(3))", "print(g(3.0))"
    )


def test_int_literal_title_names_the_literal() -> None:
    one = propose("int-to-float-literal", GRAD, "print(g(3))")
    assert (
        one is not None and one.title == "Pass a float literal (3 -> 3.0) where grad needs floats"
    )
    several = propose("int-to-float-literal", GRAD, "argnums")
    assert several is not None and "integer literals -> floats" in several.title


def test_int_literals_in_argnums_positions_only() -> None:
    assert fixed("int-to-float-literal", GRAD, "argnums") == GRAD.replace(
        "(3, -4, 5)", "(3.0, -4.0, 5)"
    )


@pytest.mark.parametrize("call", ["g(3.0)", "g(x)", "g(0x10)", "print(3)", "h(3)"])
def test_int_literal_not_offered(call: str) -> None:
    source = f"import jax\ng = jax.grad(f)\n{call}\n"
    assert fixed("int-to-float-literal", source, call) is None


def test_int_literal_value_and_grad_and_emoji() -> None:
    source = "from jax import value_and_grad\ns = '🎉'; v = value_and_grad(f)(1_000)\n"
    assert fixed("int-to-float-literal", source, "v =") == source.replace("1_000", "1_000.0")


# --- list-to-tuple ----------------------------------------------------------------------------


def test_list_to_tuple_inline_static_argnums() -> None:
    source = "import jax\ny = jax.jit(f, static_argnums=1)(x, [1, 2])  # c\n"
    assert fixed("list-to-tuple", source, "y =") == source.replace("[1, 2]", "(1, 2)")


def test_list_to_tuple_decorated_static_argnames_nested_and_single() -> None:
    source = """\
from functools import partial
import jax


@partial(jax.jit, static_argnames=("dims", "pads"))
def f(x, dims, pads=None):
    return x


f(x, [[1, 2], [3]], pads=[0])
"""
    assert fixed("list-to-tuple", source, "f(x, [[") == source.replace(
        "f(x, [[1, 2], [3]], pads=[0])", "f(x, ((1, 2), (3,)), pads=(0,))"
    )


def test_list_to_tuple_named_jit_and_empty_list() -> None:
    source = "import jax\ng = jax.jit(f, static_argnames='shape')\ng(x, shape=[])\n"
    assert fixed("list-to-tuple", source, "g(x") == source.replace("shape=[]", "shape=()")


@pytest.mark.parametrize(
    "call",
    [
        "g(x, [i for i in r])",  # a comprehension is not a display
        "g([1], (1, 2))",  # position 0 is not static
        "h(x, [1])",  # not a jitted function we can see
    ],
)
def test_list_to_tuple_not_offered(call: str) -> None:
    source = f"import jax\ng = jax.jit(f, static_argnums=(1,))\n{call}\n"
    assert fixed("list-to-tuple", source, call) is None


# --- int-seed-to-key --------------------------------------------------------------------------


def test_seed_to_key_module_and_from_import() -> None:
    source = "import jax\nx = jax.random.normal(0, (3,))\n"
    assert fixed("int-seed-to-key", source, "x =") == (
        "import jax\nx = jax.random.normal(jax.random.key(0), (3,))\n"
    )
    source = "from jax import random\nx = random.uniform(key=42, shape=(2,))\n"
    assert fixed("int-seed-to-key", source, "x =") == (
        "from jax import random\nx = random.uniform(key=random.key(42), shape=(2,))\n"
    )


def test_seed_to_key_alias_and_not_offered() -> None:
    source = "import jax.random as jr\nx = jr.split(7)\n"
    assert fixed("int-seed-to-key", source, "x =") == (
        "import jax.random as jr\nx = jr.split(jr.key(7))\n"
    )
    for call in ["jr.key(0)", "jr.PRNGKey(0)", "jr.normal(k, (3,))", "jr.normal(0.5)"]:
        source = f"import jax.random as jr\nx = {call}\n"
        assert fixed("int-seed-to-key", source, "x =") is None


# --- has-aux ----------------------------------------------------------------------------------


def test_has_aux_on_named_and_inline_grad() -> None:
    proposal = propose("has-aux", GRAD, "print(g(3))")
    assert proposal is not None and not proposal.safe
    assert "changes behaviour" in proposal.title
    assert fixed("has-aux", GRAD, "print(g(3))") == GRAD.replace(
        "g = jax.grad(loss)", "g = jax.grad(loss, has_aux=True)"
    )
    assert fixed("has-aux", GRAD, "argnums") == GRAD.replace(
        "argnums=(0, 1))", "argnums=(0, 1), has_aux=True)"
    )


def test_has_aux_not_offered_for_scalar_function_or_twice() -> None:
    source = "import jax\ndef loss(w):\n    return w * w\ng = jax.grad(loss)\n"
    assert fixed("has-aux", source, "g =") is None
    once = fixed("has-aux", GRAD, "print(g(3))")
    assert once is not None and fixed("has-aux", once, "print(g(3))") is None


def test_has_aux_unknown_function_needs_a_diagnostic() -> None:
    source = "import jax\nfrom lib import loss\ng = jax.grad(loss)\n"
    assert fixed("has-aux", source, "g =") is not None
    assert "has-aux" not in at_cursor(source, "g =", "jax.grad")


# --- list-to-asarray --------------------------------------------------------------------------


def test_list_to_asarray() -> None:
    source = "import jax.numpy as jnp\ns = jnp.sum([1, 2, 3])\n"
    assert fixed("list-to-asarray", source, "s =") == (
        "import jax.numpy as jnp\ns = jnp.sum(jnp.asarray([1, 2, 3]))\n"
    )


def test_list_to_asarray_position_field_and_import() -> None:
    source = "import jax\ns = jax.numpy.dot(x, (1, 2))\n"
    assert fixed("list-to-asarray", source, "s =", {"position": "1"}) == (
        "import jax\nimport jax.numpy as jnp\ns = jax.numpy.dot(x, jnp.asarray((1, 2)))\n"
    )


@pytest.mark.parametrize("call", ["jnp.stack([a, b])", "jnp.zeros([3])", "jnp.sum(x)", "sum([1])"])
def test_list_to_asarray_not_offered(call: str) -> None:
    assert fixed("list-to-asarray", f"import jax.numpy as jnp\ns = {call}\n", "s =") is None


# --- lax-to-jnp -------------------------------------------------------------------------------


def test_lax_to_jnp() -> None:
    source = "from jax import lax\nimport jax.numpy as jnp\ny = lax.sub(a, lax.max(b, c))\n"
    proposal = propose("lax-to-jnp", source, "y =")
    assert proposal is not None and not proposal.safe
    assert proposal.title == "Use jnp.subtract (changes behaviour: promotes dtypes)"
    assert fixed("lax-to-jnp", source, "y =") == source.replace(
        "lax.sub(a, lax.max(b, c))", "jnp.subtract(a, jnp.maximum(b, c))"
    )


def test_lax_to_jnp_named_op_only_and_not_offered() -> None:
    source = "import jax\ny = jax.lax.add(a, jax.lax.mul(b, c))\n"
    assert fixed("lax-to-jnp", source, "y =", {"name": "lax.add"}) == (
        "import jax\nimport jax.numpy as jnp\ny = jnp.add(a, jax.lax.mul(b, c))\n"
    )
    source = "from jax import lax\ny = lax.rem(a, b) + lax.scan(f, x, y)\n"
    assert fixed("lax-to-jnp", source, "y =") is None


# --- split-to-array-split ---------------------------------------------------------------------


def test_split_to_array_split() -> None:
    source = "import jax.numpy as jnp\na, b = jnp.split(jnp.arange(5), 2)  # 🎉\n"
    proposal = propose("split-to-array-split", source, "a, b")
    assert proposal is not None and not proposal.safe and "changes behaviour" in proposal.title
    assert fixed("split-to-array-split", source, "a, b") == source.replace("split(", "array_split(")


def test_split_not_offered_for_numpy_or_bare_name() -> None:
    for source in [
        "import numpy as np\nx = np.split(a, 2)\n",
        "from jax.numpy import split\nx = split(a, 2)\n",
    ]:
        assert fixed("split-to-array-split", source, "x =") is None


# --- grad-to-jacobian -------------------------------------------------------------------------


def test_grad_to_jacobian() -> None:
    source = "import jax\nj = jax.grad(f)(x)\n"
    proposal = propose("grad-to-jacobian", source, "j =")
    assert proposal is not None and not proposal.safe
    assert proposal.title == "Use jax.jacobian (changes behaviour: returns the full Jacobian)"
    assert fixed("grad-to-jacobian", source, "j =") == "import jax\nj = jax.jacobian(f)(x)\n"


def test_grad_to_jacobian_from_import_adds_jax() -> None:
    source = "from jax import grad\ng = grad(f, argnums=1)\ng(x, y)\n"
    assert fixed("grad-to-jacobian", source, "g(x") == (
        "from jax import grad\nimport jax\ng = jax.jacobian(f, argnums=1)\ng(x, y)\n"
    )
    assert fixed("grad-to-jacobian", "import jax\nv = jax.value_and_grad(f)(x)\n", "v =") is None


# --- pass-ref-not-value -----------------------------------------------------------------------


KERNEL = """\
from jax.experimental.pallas import mosaic_gpu as plgpu


def kernel(x_ref, o_ref):
    peer = plgpu.remote_ref(x_ref[...], device_id=1)  # 🎉 peer
    o_ref[...] = peer[...]
"""


def test_pass_ref_whole_load() -> None:
    assert fixed("pass-ref-not-value", KERNEL, "peer =") == KERNEL.replace(
        "remote_ref(x_ref[...],", "remote_ref(x_ref,"
    )


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            "plgpu.multicast_ref(self.x_ref[0, :], 'x')",
            "plgpu.multicast_ref(self.x_ref.at[0, :], 'x')",
        ),
        (
            "plgpu.cluster_ref(ref=x_ref[:], block_id={})",
            "plgpu.cluster_ref(ref=x_ref, block_id={})",
        ),
        ("mgpu.transform_ref(x_ref[1], t)", "mgpu.transform_ref(x_ref.at[1], t)"),
    ],
)
def test_pass_ref_variants(call: str, expected: str) -> None:
    head = "from jax.experimental.pallas import mosaic_gpu as plgpu\n"
    head += "import jax.experimental.pallas.mosaic_gpu as mgpu\n"
    assert fixed("pass-ref-not-value", f"{head}p = {call}\n", "p =") == f"{head}p = {expected}\n"


@pytest.mark.parametrize(
    "call",
    [
        "plgpu.remote_ref(x_ref, 1)",
        "plgpu.remote_ref(x_ref.at[0], 1)",
        "other.remote_ref(x[...], 1)",
    ],
)
def test_pass_ref_not_offered(call: str) -> None:
    source = f"from jax.experimental.pallas import mosaic_gpu as plgpu\np = {call}\n"
    assert fixed("pass-ref-not-value", source, "p =") is None


def test_list_to_asarray_name_assigned_a_comprehension() -> None:
    source = "import jax.numpy as jnp\nlosses = [f(b) for b in bs]\nprint(jnp.mean(losses))\n"
    expected = source.replace("jnp.mean(losses)", "jnp.mean(jnp.asarray(losses))")
    assert fixed("list-to-asarray", source, "print(") == expected
    assert fixed("list-to-asarray", source, "print(", {"fun": "mean", "position": "0"}) == expected
    assert fixed("list-to-asarray", source, "print(", {"fun": "sum", "position": "0"}) is None
    assert fixed("list-to-asarray", expected, "print(", {"fun": "mean", "position": "0"}) is None


def test_list_to_asarray_position_field_wraps_any_expression() -> None:
    source = "import jax.numpy as jnp\ny = jnp.dot(x, get_list())\n"
    assert fixed("list-to-asarray", source, "y =", {"position": "1"}) == (
        "import jax.numpy as jnp\ny = jnp.dot(x, jnp.asarray(get_list()))\n"
    )
    assert fixed("list-to-asarray", source, "y =") is None
