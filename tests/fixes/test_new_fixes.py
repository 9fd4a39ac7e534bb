"""cond-to-where, mask-reduce-where, static-loop-bounds, and the widened int-to-float-literal and
list-to-asarray: what they change, when they are safe, and when they stay away."""

from __future__ import annotations

from tests.fixes.helpers import fixed, propose

HEAD = "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\n\n@jax.jit\n"


def test_cond_with_lambdas_becomes_where_with_the_operands_inlined() -> None:
    source = HEAD + "def f(x):\n    return lax.cond(x > 1.0, lambda v: v * 0.5, lambda v: v, x)\n"
    proposal = propose("cond-to-where", source, "lax.cond")
    assert proposal is not None and proposal.safe
    after = fixed("cond-to-where", source, "lax.cond")
    assert after is not None and "    return jnp.where(x > 1.0, x * 0.5, x)\n" in after


def test_cond_operand_expressions_are_parenthesised_and_attributes_kept() -> None:
    source = (
        HEAD + "def f(x, y):\n    return lax.cond(x > 0, lambda a: a.T * 2, lambda a: -a, x + y)\n"
    )
    after = fixed("cond-to-where", source, "lax.cond")
    assert after is not None and "jnp.where(x > 0, (x + y).T * 2, -(x + y))" in after


def test_cond_with_named_branches_calls_them_and_is_not_safe() -> None:
    source = HEAD + "def f(x):\n    return lax.cond(x > 0, grow, keep, x)\n"
    proposal = propose("cond-to-where", source, "lax.cond")
    assert proposal is not None and not proposal.safe
    assert "changes behaviour" in proposal.title
    after = fixed("cond-to-where", source, "lax.cond")
    assert after is not None and "jnp.where(x > 0, grow(x), keep(x))" in after


def test_cond_branch_with_log_is_not_safe_and_tuples_are_left_alone() -> None:
    source = HEAD + "def f(x):\n    return lax.cond(x > 1, lambda v: jnp.log(v), lambda v: v, x)\n"
    proposal = propose("cond-to-where", source, "lax.cond")
    assert proposal is not None and not proposal.safe
    tuples = source.replace("lambda v: v, x", "lambda v: (v, v), x")
    assert propose("cond-to-where", tuples, "lax.cond") is None


def test_masked_sum_becomes_where_then_sum() -> None:
    source = HEAD + "def f(x):\n    return x[x > 0].sum()\n"
    proposal = propose("mask-reduce-where", source, "x[x > 0]")
    assert proposal is not None and proposal.safe
    after = fixed("mask-reduce-where", source, "x[x > 0]")
    assert after is not None and "    return jnp.where(x > 0, x, 0).sum()\n" in after


def test_masked_mean_uses_where_keyword_and_function_form() -> None:
    source = HEAD + "def f(x):\n    return x[x > 0].mean()\n"
    assert "return x.mean(where=x > 0)" in (fixed("mask-reduce-where", source, "x[x") or "")
    source = HEAD + "def f(x, lo):\n    return jnp.sum(x[lo < x])\n"
    assert "jnp.sum(jnp.where(lo < x, x, 0))" in (fixed("mask-reduce-where", source, "x[") or "")


def test_masked_max_and_foreign_masks_are_not_safe() -> None:
    source = HEAD + "def f(x):\n    return jnp.max(x[x < 4])\n"
    proposal = propose("mask-reduce-where", source, "x[x")
    assert proposal is not None and not proposal.safe
    assert "jnp.max(jnp.where(x < 4, x, -jnp.inf))" in (
        fixed("mask-reduce-where", source, "x[x") or ""
    )
    source = HEAD + "def f(x, m):\n    return x[m].sum()\n"
    proposal = propose("mask-reduce-where", source, "x[m]")
    assert proposal is not None and not proposal.safe


def test_no_masked_reduction_no_fix() -> None:
    for body in ("x[1:3].sum()", "x[x > 0]", "x[x > 0].sum(axis=0)", "x[0, x > 0].sum()"):
        source = HEAD + f"def f(x):\n    return {body}\n"
        assert propose("mask-reduce-where", source, "return") is None, body


LOOP = """\
import jax


@jax.jit
def simulate(rate, num_steps):
    return jax.lax.fori_loop(0, num_steps, lambda i, v: v * (1.0 + rate), 1.0)


print(jax.grad(lambda r: simulate(r, 5))(0.1))
print(simulate(0.1, 5))
"""


def test_fori_bound_parameter_is_marked_static() -> None:
    proposal = propose("static-loop-bounds", LOOP, "fori_loop")
    assert proposal is not None and proposal.safe
    assert proposal.title == "Mark the loop bound 'num_steps' as static (static_argnames)"
    after = fixed("static-loop-bounds", LOOP, "fori_loop")
    assert after is not None and '@partial(jax.jit, static_argnames=("num_steps",))' in after


def test_fori_bound_passed_an_array_is_not_marked() -> None:
    source = LOOP.replace("simulate(0.1, 5)", "simulate(0.1, jnp.array(5))")
    source = source.replace("import jax\n", "import jax\nimport jax.numpy as jnp\n", 1)
    assert propose("static-loop-bounds", source, "fori_loop") is None
    literal_bounds = LOOP.replace("fori_loop(0, num_steps", "fori_loop(0, 5")
    assert propose("static-loop-bounds", literal_bounds, "fori_loop") is None


GRAD = "import jax\nimport jax.numpy as jnp\n\n\ndef f(v):\n    return (v**2).sum()\n\n\n"


def test_grad_inputs_built_from_int_literals_become_floats() -> None:
    source = GRAD + "print(jax.grad(f)(jnp.array([1, 2, -3])))\n"
    after = fixed("int-to-float-literal", source, "print(")
    assert after is not None and "jnp.array([1.0, 2.0, -3.0])" in after
    typed = GRAD + "print(jax.grad(f)(jnp.array([1, 2], dtype=jnp.int32)))\n"
    assert propose("int-to-float-literal", typed, "print(") is None


def test_grad_input_name_assigned_an_int_literal() -> None:
    source = GRAD + "x0 = 4\nprint(jax.grad(f)(x0))\n"
    proposal = propose("int-to-float-literal", source, "print(")
    assert proposal is not None and proposal.safe
    assert "x0 = 4.0\n" in (fixed("int-to-float-literal", source, "print(") or "")
    # Read elsewhere too (a count here, printed in jax#2663): converted only where differentiated.
    reused = GRAD + "x0 = 4\nprint(jax.grad(f)(x0))\nprint(list(range(x0)))\n"
    proposal = propose("int-to-float-literal", reused, "print(jax")
    assert proposal is not None and proposal.safe
    after = fixed("int-to-float-literal", reused, "print(jax") or ""
    assert "x0 = 4\n" in after and "jax.grad(f)(float(x0))" in after
    assert "range(x0)" in after
    array = GRAD + "x0 = jnp.array([1, 2])\nprint(jax.grad(f)(x0))\nprint(x0.dtype)\n"
    proposal = propose("int-to-float-literal", array, "print(jax")
    assert proposal is not None and not proposal.safe


def test_every_list_argument_is_converted() -> None:
    source = "import jax.numpy as jnp\n\nprint(jnp.multiply([1.0, 2.0], [3.0, 4.0]))\n"
    after = fixed("list-to-asarray", source, "jnp.multiply", {"fun": "multiply", "position": "0"})
    assert after is not None
    assert "jnp.multiply(jnp.asarray([1.0, 2.0]), jnp.asarray([3.0, 4.0]))" in after
