"""The tracing model on small programs: which functions and parameters are traced, and what not."""

from __future__ import annotations

from textwrap import dedent

from jaxerr_ls.analysis import USE_BRANCH, USE_RANGE, USE_SHAPE, Model, TracedFunction, analyze


def model_of(code: str) -> Model:
    model = analyze(dedent(code))
    assert model is not None
    return model


def fn(model: Model, qualname: str) -> TracedFunction:
    found = [f for f in model.functions if f.qualname == qualname]
    assert found, [f.qualname for f in model.functions]
    return found[0]


def traced(function: TracedFunction) -> set[str]:
    return {p.name for p in function.params if p.traced}


def test_jit_decorator_static_argnums_and_defaults() -> None:
    model = model_of(
        """
        import jax
        from functools import partial

        @partial(jax.jit, static_argnums=1)
        def f(x, n, flag=True):
            y = x * 2
            m = x.shape[0]
            for _ in range(n):
                y = y + 1
            return y
        """
    )
    f = fn(model, "f")
    assert traced(f) == {"x"}
    assert f.param("n") is not None and f.param("n").static  # type: ignore[union-attr]
    assert "y" in f.traced_names and "m" not in f.traced_names
    assert USE_RANGE in f.param("n").uses  # type: ignore[union-attr]


def test_aliased_imports_and_call_forms() -> None:
    model = model_of(
        """
        import jax as J
        import jax.numpy as np2
        from jax import lax

        def body(carry, x):
            return carry + np2.sin(x), carry

        def step(x, n):
            return np2.zeros(n) + x

        step_jit = J.jit(step, static_argnames="n")
        lax.scan(body, 0.0, np2.ones(3))
        step_jit(np2.ones(3), 4)
        """
    )
    assert traced(fn(model, "body")) == {"carry", "x"}
    step = fn(model, "step")
    assert traced(step) == {"x"} and USE_SHAPE in step.param("n").uses  # type: ignore[union-attr]
    (site,) = step.call_sites
    assert site.through == "step_jit"
    argument = site.argument_for("n")
    assert argument is not None and argument.kind == "int"


def test_untraced_code_is_not_modelled() -> None:
    model = model_of(
        """
        import jax.numpy as jnp

        def f(x):
            if x > 0:
                return x
            return -x
        """
    )
    assert model.functions == ()


def test_called_with_traced_arguments_and_closures() -> None:
    model = model_of(
        """
        import jax

        def helper(a, b):
            return a if a > b else b

        @jax.jit
        def g(x):
            def inner(z):
                return z + x
            return helper(x, 3) + inner(1.0)
        """
    )
    helper = fn(model, "helper")
    assert traced(helper) == {"a"} and USE_BRANCH in helper.param("a").uses  # type: ignore[union-attr]
    inner = fn(model, "g.inner")
    assert traced(inner) == set() and "x" in inner.traced_names


def test_grad_alone_is_not_abstract_and_vmap_none_axes_are_not_traced() -> None:
    model = model_of(
        """
        import jax

        def loss(w, n):
            return w * n

        def per_example(x, scale):
            return x * scale

        jax.grad(loss)(1.0, 2)
        jax.vmap(per_example, in_axes=(0, None))
        """
    )
    loss = fn(model, "loss")
    assert not loss.abstract and traced(loss) == {"w"}
    assert traced(fn(model, "per_example")) == {"x"}


def test_shape_len_and_is_none_are_not_traced() -> None:
    model = model_of(
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x, params):
            a = x.shape[0] * 2
            b = len(x)
            c = x.ndim
            d = jnp.shape(x)
            e = params["w"] @ x
            return a, b, c, d, e
        """
    )
    f = fn(model, "f")
    assert set(f.traced_names) == {"x", "params", "e"}


def test_unparsable_text_has_no_model() -> None:
    assert analyze("def f(:\n") is None
