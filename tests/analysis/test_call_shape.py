"""What a call's shape ties to it, for the hover (issue 19): the lines whose diagnostics concern
the call and the entries the shape points at, whatever names the transforms are imported under."""

from __future__ import annotations

from jaxerr_ls.analysis.call_shape import call_shape


def at(source: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """0-based line and column inside the `nth` occurrence of `needle`."""
    found = -1
    for number, text in enumerate(source.splitlines()):
        column = text.find(needle)
        while column >= 0:
            found += 1
            if found == nth:
                return number, column + 1
            column = text.find(needle, column + 1)
    raise AssertionError(needle)


def test_a_jitted_method_and_the_lines_that_run_it() -> None:
    source = "from jax import jit\n\nclass A:\n    @jit\n    def f(self, x):\n        return x\n\nA().f(5)\n"
    shape = call_shape(source, *at(source, "@jit"), "jax.jit")
    assert shape.entry_ids == ("jit-method-self",)
    assert {4, 5, 7} <= set(shape.lines)  # the body, and the call `A().f(5)`
    marked = source.replace("@jit", "@partial(jit, static_argnums=0)")
    assert call_shape(marked, *at(marked, "jit, static"), "jax.jit").entry_ids == ()


def test_a_static_argument_given_a_list_and_a_string_given_to_a_traced_one() -> None:
    source = (
        "import jax\n\ndef g(x, y):\n    return x + y[0]\n\n"
        "f = jax.jit(g, static_argnums=(1,))\nf(1, [2, 3])\n"
    )
    shape = call_shape(source, *at(source, "jit"), "jax.jit")
    assert shape.entry_ids == ("static-arg-unhashable-container",)
    assert 6 in shape.lines  # where `f` is called
    strings = "import jax\n\n@jax.jit\ndef p(arr, msg):\n    return arr\n\np(1, 'hi')\n"
    assert call_shape(strings, *at(strings, "jit"), "jax.jit").entry_ids == (
        "jit-argument-invalid-type",
    )


def test_in_axes_as_a_dict_a_list_literal_and_an_int_to_grad() -> None:
    vmap = "import jax\n\njax.vmap(f, in_axes={'a': 0})(x)\n"
    assert call_shape(vmap, *at(vmap, "vmap"), "jax.vmap").entry_ids == ("vmap-in-axes-invalid",)
    listed = "import jax.numpy as np\n\nnp.sum([1, 2])\n"
    assert call_shape(listed, *at(listed, "sum"), "jax.numpy.sum").entry_ids == (
        "jnp-list-argument",
    )
    stacked = "import jax.numpy as np\n\nnp.stack([a, b])\n"
    assert call_shape(stacked, *at(stacked, "stack"), "jax.numpy.stack").entry_ids == ()
    grad = "from jax import grad\n\ngrad(f)(3)\n"
    assert call_shape(grad, *at(grad, "grad", 1), "jax.grad").entry_ids == ("grad-integer-input",)


def test_where_a_result_is_used_and_functions_passed_to_the_call() -> None:
    source = (
        "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef c(arr):\n"
        "    count = jnp.add(arr.size, 1)\n    return jnp.ones((count,))\n"
    )
    assert 6 in call_shape(source, *at(source, "add"), "jax.numpy.add").lines
    passed = "import jax\n\ndef func(x):\n    return float(x)\n\nprint(jax.grad(func)(3.0))\n"
    assert 3 in call_shape(passed, *at(passed, "grad"), "jax.grad").lines
    returned = "import jax.numpy as jnp\n\ndef b(z):\n    return jnp.array(z)\n\nuse(b(1))\n"
    assert 5 in call_shape(returned, *at(returned, "array"), "jax.numpy.array").lines


def test_text_that_does_not_parse_or_no_call_gives_nothing() -> None:
    assert call_shape("def f(:\n", 0, 4, "jax.jit").lines == ()
    assert call_shape("x = 1\n", 0, 0, "jax.jit").entry_ids == ()
