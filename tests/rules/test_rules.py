"""Each rule on small programs: what it finds (entry, 1-based line) and, as important, what not."""

from __future__ import annotations

from textwrap import dedent

import pytest

from jaxerr_ls.rules import RULES, check_source

HEAD = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom functools import partial\nfrom jax import lax\n"
# Line numbers below count from the first line after HEAD (HEAD has 5 lines).
OFFSET = 5

FINDS = [
    (
        "if-on-traced",
        """
        @jax.jit
        def f(x):
            if x > 0:
                return x
            return -x
        """,
        {(3, "tracer-bool-conversion")},
    ),
    (
        "while-and-not-on-derived",
        """
        @jax.jit
        def f(x, y):
            err = jnp.abs(x - y).sum()
            while err > 1e-3:
                err = err / 2
            ok = not err
            return x and y
        """,
        {
            (4, "tracer-bool-conversion"),
            (6, "tracer-bool-conversion"),
            (7, "tracer-bool-conversion"),
        },
    ),
    (
        "scan-body-branch",
        """
        def body(carry, x):
            y = carry + x if x > 0 else carry
            return y, y

        lax.scan(body, 0.0, jnp.ones(3))
        """,
        {(2, "tracer-bool-conversion")},
    ),
    (
        "range-zeros-arange",
        """
        @jax.jit
        def f(x, n):
            for _ in range(n):
                x = x + 1
            z = jnp.zeros((n, 3))
            return jnp.arange(n) + z.sum()
        """,
        {
            (3, "tracer-integer-conversion"),
            (5, "traced-shape-not-concrete"),
            (6, "concretization-arange"),
        },
    ),
    (
        "float-item",
        """
        @jax.jit
        def f(x):
            loss = jnp.mean(x ** 2)
            return float(loss), loss.item()
        """,
        {(4, "concretization-scalar-conversion"), (4, "concretization-item-tolist")},
    ),
    (
        "numpy-on-traced",
        """
        @jax.jit
        def f(w, x):
            return np.dot(x, w)
        """,
        {(3, "tracer-array-conversion")},
    ),
    (
        "item-assignment",
        """
        counts = jnp.zeros(7)
        for r in range(3):
            counts[r] += 1
        """,
        {(3, "immutable-array-item-assignment")},
    ),
    (
        "mask-nonzero-unique",
        """
        @jax.jit
        def f(x):
            a = x[x > 0].mean()
            (idx,) = jnp.where(x > 0)
            u = jnp.unique(x)
            return a, idx, u
        """,
        {
            (3, "non-concrete-boolean-index"),
            (4, "concretization-nonzero-size"),
            (5, "concretization-unique-size"),
        },
    ),
    (
        "int-seed",
        """
        def noisy(x, seed):
            return x + jax.random.normal(seed, x.shape)

        noisy(jnp.ones(3), 0)
        jax.random.uniform(1, (2,))
        """,
        {(2, "random-int-seed-not-key"), (5, "random-int-seed-not-key")},
    ),
    (
        "list-to-jnp",
        """
        losses = [jnp.ones(()) for _ in range(3)]
        print(jnp.mean(losses), jnp.sum([1.0, 2.0]))
        """,
        {(2, "jnp-list-argument")},
    ),
    (
        "jit-arguments",
        """
        @partial(jax.jit, static_argnames="axes")
        def norm(x, axes, kind):
            return x.sum(axis=axes)

        norm(jnp.ones((2, 2)), [0, 1], "l2")

        class Scaler:
            @jax.jit
            def apply(self, x):
                return x

        @partial(jax.jit, static_argnums=3)
        def g(x, n):
            return x
        """,
        {
            (5, "static-arg-unhashable-container"),
            (5, "jit-argument-invalid-type"),
            (8, "jit-method-self"),
            (12, "static-argnums-out-of-range"),
        },
    ),
    (
        "refs",
        """
        from jax.experimental.pallas import mosaic_gpu as plgpu

        def body(x):
            ref = jax.new_ref(x)
            return ref[...]

        f = jax.shard_map(body, mesh=None, in_specs=None, out_specs=None)

        def kernel(x_ref, o_ref):
            o_ref[...] = plgpu.remote_ref(x_ref[...], device_id=1)[...]
        """,
        {(4, "eager-shard-map-ref"), (10, "pallas-mosaic-gpu-ref-not-reference")},
    ),
    (
        "key-reuse",
        """
        jax.config.update("jax_debug_key_reuse", True)
        def init(key):
            w = jax.random.normal(key, (3,))
            b = jax.random.normal(key, (3,))
            return w, b
        """,
        {(4, "random-key-reuse")},
    ),
    (
        "axis-names",
        """
        def share(x):
            return x / lax.psum(x, "batch")

        print(share(jnp.ones(3)))
        """,
        {(2, "unbound-axis-name")},
    ),
]

QUIET = [
    (
        "shape-arithmetic-and-static",
        """
        @partial(jax.jit, static_argnums=1)
        def f(x, n):
            m = x.shape[0] * 2
            if m > 4 and x.ndim == 2 and len(x) > 1:
                x = x + 1
            if n > 0:
                x = jnp.zeros(n) + x.sum()
            for _ in range(n):
                x = x * 2
            return jnp.arange(m), x.reshape(m, -1)
        """,
    ),
    (
        "outside-traced-and-grad-alone",
        """
        def f(x):
            if x > 0:
                return float(x)
            return np.asarray(x)

        def g(x):
            return x if x > 0 else -x

        jax.grad(g)(1.0)
        """,
    ),
    (
        "debug-print-where-cond-is-none-defaults",
        """
        @jax.jit
        def f(x, mask=None, training=True):
            jax.debug.print("x={x}", x=x)
            if mask is not None:
                x = jnp.where(mask, x, 0.0)
            if training:
                x = x * 2
            y = jnp.where(x > 0, x, 0.0)
            idx = jnp.nonzero(x, size=3)
            return lax.cond(x.sum() > 0, lambda v: v, lambda v: -v, y), idx
        """,
    ),
    (
        "pytree-static-fields-and-dict-params",
        """
        @jax.jit
        def f(params, config):
            if config.use_bias:
                params["b"] = 0
            for name, value in params.items():
                if name == "w":
                    pass
            return params
        """,
    ),
    (
        "keys-split-and-numpy-arrays",
        """
        key = jax.random.key(0)
        key, sub = jax.random.split(key)
        w = jax.random.normal(sub, (3,))
        key, sub = jax.random.split(key)
        b = jax.random.normal(sub, (3,))
        buf = np.zeros(3)
        buf[0] = 1.0
        print(jnp.stack([w, b]), jnp.asarray([1, 2]))
        """,
    ),
    (
        "mapped-axis-names-and-jitted-shard-map",
        """
        def share(x):
            return x / lax.psum(x, "batch")

        print(jax.vmap(share, axis_name="batch")(jnp.ones(3)))

        def body(x):
            ref = jax.new_ref(x)
            return ref[...]

        f = jax.jit(jax.shard_map(body, mesh=None, in_specs=None, out_specs=None))
        """,
    ),
    (
        "key-reuse-without-the-debug-check-raises-nothing",
        """
        def init(key):
            w = jax.random.normal(key, (3,))
            b = jax.random.normal(key, (3,))
            return w, b
        """,
    ),
    (
        "ignore-comments",
        """
        @jax.jit
        def f(x):
            if x > 0:  # jaxerr: ignore
                x = x + 1
            if x < 0:  # jaxerr: ignore[tracer-bool-conversion]
                x = x - 1
            return x
        """,
    ),
]


def _found(code: str) -> set[tuple[int, str]]:
    source = HEAD + dedent(code).lstrip("\n")
    return {(f.line + 1 - OFFSET, f.entry) for f in check_source(source)}


@pytest.mark.parametrize(("code", "expected"), [c[1:] for c in FINDS], ids=[c[0] for c in FINDS])
def test_rule_finds(code: str, expected: set[tuple[int, str]]) -> None:
    assert _found(code) == expected


@pytest.mark.parametrize("code", [c[1] for c in QUIET], ids=[c[0] for c in QUIET])
def test_rule_stays_quiet(code: str) -> None:
    assert _found(code) == set()


def test_ignore_names_other_entries_does_not_silence() -> None:
    code = """
    @jax.jit
    def f(x):
        if x > 0:  # jaxerr: ignore[tracer-integer-conversion]
            x = x + 1
        return x
    """
    assert _found(code) == {(3, "tracer-bool-conversion")}


def test_every_rule_names_curated_entries() -> None:
    from jaxerr_ls.catalog import load_catalog

    catalog = load_catalog()
    for rule in RULES.values():
        for entry in rule.entries:
            assert catalog.get(entry) is not None, (rule.id, entry)


def test_findings_carry_the_fields_the_fixes_read() -> None:
    code = """
    @jax.jit
    def f(x, n):
        return jnp.zeros(n) + x
    """
    (found,) = check_source(HEAD + dedent(code).lstrip("\n"))
    assert found.fields["name"] == "n"
    assert "traced" in found.message and found.message.startswith("TypeError")
