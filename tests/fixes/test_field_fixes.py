"""The fixes the field programs needed (issue 19), on the shapes users wrote: values followed
through the file, library functions jitted whole, masks made by `jnp.nonzero`, sequences of lists.
Each case is the shape of a field program in `tests/field/programs/`; those run under JAX in
`tests/field/`."""

from __future__ import annotations

from tests.fixes.helpers import fixed, propose


def test_a_list_passed_to_the_same_jitted_function_twice_becomes_a_tuple_in_both_calls() -> None:
    source = (
        "import jax\n\ndef g(x, y):\n    return x + y[0]\n\n"
        "f = jax.jit(g, static_argnums=(1,))\nprint(f(1, [2, 3]))\nprint(f(2, [4]))\n"
        "print(h(1, [2, 3]))\n"
    )
    after = fixed("list-to-tuple", source, "print(f(1") or ""
    assert "f(1, (2, 3))" in after and "f(2, (4,))" in after
    assert "h(1, [2, 3])" in after  # another function's call is left alone


def test_literal_arguments_of_a_library_function_jitted_whole_become_static() -> None:
    one_hot = "from jax import jit\nfrom jax.nn import one_hot\n\njit(one_hot)(3, 5)\n"
    proposal = propose("static-literal-args", one_hot, "jit(one_hot)")
    assert proposal is not None and proposal.safe
    assert "jit(one_hot, static_argnums=(0, 1))(3, 5)" in (
        fixed("static-literal-args", one_hot, "jit(one_hot)") or ""
    )
    summed = "import jax\nimport jax.numpy as jnp\n\ng = jax.jit(jnp.sum)\ng(jnp.arange(4), 0)\n"
    assert "jax.jit(jnp.sum, static_argnums=(1,))" in (
        fixed("static-literal-args", summed, "g(jnp") or ""
    )


def test_static_literal_args_leaves_functions_defined_here_and_given_statics_alone() -> None:
    own = "import jax\n\ndef f(x, n):\n    return x * n\n\njax.jit(f)(1.0, 3)\n"
    assert propose("static-literal-args", own, "jax.jit(f)") is None
    given = "import jax\nimport jax.numpy as jnp\n\njax.jit(jnp.sum, static_argnums=1)(x, 0)\n"
    assert propose("static-literal-args", given, "jax.jit") is None
    arrays = "import jax\nimport jax.numpy as jnp\n\njax.jit(jnp.sum)(x, y)\n"
    assert propose("static-literal-args", arrays, "jax.jit") is None


def test_a_reduction_over_nonzero_indices_becomes_a_masked_reduction() -> None:
    source = "import jax.numpy as jnp\n\ndef f(a):\n    return a[jnp.nonzero(a)].prod()\n"
    proposal = propose("mask-reduce-where", source, "return")
    assert proposal is not None and proposal.safe
    assert "jnp.where(a != 0, a, 1).prod()" in (fixed("mask-reduce-where", source, "return") or "")
    compared = "import jax.numpy as jnp\n\ndef f(a):\n    return a[jnp.where(a > 2)].sum()\n"
    assert "jnp.where(a > 2, a, 0).sum()" in (fixed("mask-reduce-where", compared, "return") or "")


def test_lists_among_the_items_of_a_sequence_argument_are_converted() -> None:
    source = "import jax.numpy as np\n\nprint(np.concatenate([[], [1]], 0))\n"
    fields = {"fun": "concatenate", "type": "<class 'list'>", "position": "0"}
    after = fixed("list-to-asarray", source, "print", fields) or ""
    assert "np.concatenate([np.asarray([]), np.asarray([1])], 0)" in after
    # Without the message naming the function, a sequence-taking function is left alone.
    assert propose("list-to-asarray", source, "print") is None


def test_an_int_read_elsewhere_is_converted_where_it_is_differentiated() -> None:
    source = (
        "import jax.numpy as np\nfrom jax import grad\naval =2\n"
        'print("aval=" +str(aval))\n\ngrad(np.tanh)(aval)\n'
    )
    proposal = propose("int-to-float-literal", source, "grad(np.tanh)")
    assert proposal is not None and proposal.safe
    after = fixed("int-to-float-literal", source, "grad(np.tanh)") or ""
    assert "aval =2\n" in after and "grad(np.tanh)(float(aval))" in after


def test_transforms_assigned_to_a_name_are_read_like_imports() -> None:
    """`jit = jax.jit` (and `from jax import jit as J`): fixes and the hover read either."""
    from jaxerr_ls.fixes.imports import scan_imports as fix_imports
    from jaxerr_ls.resolve.imports import scan_imports

    source = (
        "import jax\nfrom jax import grad as G\n\njit = jax.jit\ngrad = G\n\n"
        "def g(x, y):\n    return x + y[0]\n\nh = jit(g, static_argnums=(1,))\nprint(h(1, [2]))\n"
    )
    bindings = scan_imports(source)
    assert bindings["jit"] == "jax.jit" and bindings["grad"] == "jax.grad"
    assert fix_imports(source).qualify("jit") == "jax.jit"
    assert "h(1, (2,))" in (fixed("list-to-tuple", source, "print(h") or "")
    called = "import jax\n\nmake = jax.jit(f)\n"  # a call, not an alias
    assert "make" not in scan_imports(called)


def test_a_mask_kept_in_a_variable_is_judged_by_its_value() -> None:
    source = "import jax.numpy as jnp\n\ndef f(x):\n    m = x > 0\n    return x[m].sum()\n"
    proposal = propose("mask-reduce-where", source, "return")
    assert proposal is not None and proposal.safe
    assert "jnp.where(m, x, 0).sum()" in (fixed("mask-reduce-where", source, "return") or "")
    other = "import jax.numpy as jnp\n\ndef f(x, y):\n    m = y > 0\n    return x[m].sum()\n"
    proposal = propose("mask-reduce-where", other, "return")
    assert proposal is not None and not proposal.safe  # another array's mask: its shape unknown


def test_a_static_argument_goes_on_the_outer_jit_of_a_composition() -> None:
    source = (
        "import jax\nimport jax.numpy as jnp\n\n\ndef f(x, n):\n    if n > 1:\n"
        "        return jnp.sum(x ** n)\n    return jnp.sum(x)\n\n\n"
        "g = jax.jit(jax.grad(f))\nprint(g(jnp.ones(3), 2))\n"
    )
    after = fixed("mark-static", source, "if n > 1") or ""
    assert 'g = jax.jit(jax.grad(f), static_argnames=("n",))' in after
