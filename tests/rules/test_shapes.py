"""The shape rules on variants of each mistake: at module level, moved into a function, aliased,
imported bare, called later; quiet on the fixed versions. Each first variant is also run under
real JAX: the predicted message is the one JAX prints."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxerr_ls.analysis import analyze
from jaxerr_ls.analysis.shapes import NoOracle, events
from jaxerr_ls.analysis.shapes.oracle import python_of
from jaxerr_ls.rules import check_cells, check_source, rules_for
from jaxerr_ls.rules.shapes import ShapesRule

_MARK = re.compile(r"#\s*<-\s*([\w-]+)")

# name -> variants; `# <- entry` marks the line a finding is expected on.
FAILING: dict[str, list[str]] = {
    "matmul": [
        """
        import jax.numpy as jnp
        x = jnp.ones((5, 3))
        w = jnp.ones((4, 2))
        y = x @ w  # <- dot-contraction-dim-mismatch
        """,
        """
        import jax.numpy as np
        def main():
            x = np.ones((5, 3))
            w = np.ones((4, 2))
            return np.dot(x, w)  # <- dot-contraction-dim-mismatch
        main()
        """,
        """
        from jax.numpy import ones, matmul
        def layer(x, w):
            return matmul(x, w)  # <- dot-contraction-dim-mismatch
        x = ones((5, 3))
        out = layer(x, ones((4, 2)))
        """,
        """
        import jax
        import jax.numpy as jnp
        def linear(params, x):
            return x @ params["w"] + params["b"]  # <- dot-contraction-dim-mismatch
        key = jax.random.key(0)
        params = {"w": jax.random.normal(key, (2, 3)), "b": jnp.zeros(2)}
        step = jax.jit(linear)
        print(step(params, jnp.ones((5, 3))).shape)
        """,
    ],
    "broadcast": [
        """
        import jax.numpy as jnp
        a = jnp.zeros((2, 3))
        b = jnp.ones(4)
        c = a + b  # <- broadcast-incompatible-shapes
        """,
        """
        import jax
        import jax.numpy as jnp
        @jax.jit
        def add(a, b):
            return jnp.add(a, b)  # <- broadcast-incompatible-shapes
        def main():
            return add(jnp.zeros((2, 3)), jnp.ones(4))
        main()
        """,
    ],
    "reshape": [
        """
        import jax.numpy as jnp
        x = jnp.arange(6)
        y = x.reshape(4, 2)  # <- reshape-size-mismatch
        """,
        """
        import jax.numpy as jnp
        def unflatten(flat, h, w):
            batch = flat.shape[0]
            return flat.reshape(batch, h, w)  # <- reshape-size-mismatch
        flat = jnp.arange(2 * 48, dtype=jnp.float32).reshape(2, 48)
        images = unflatten(flat, 4, 4)
        """,
    ],
    "concatenate": [
        """
        import jax.numpy as jnp
        a = jnp.zeros((2, 3))
        b = jnp.zeros((2, 4))
        c = jnp.concatenate([a, b])  # <- concatenate-shape-mismatch
        """,
        """
        from jax.numpy import stack, zeros
        def both(a, b):
            return stack([a, b])  # <- stack-shape-mismatch
        both(zeros(3), zeros(4))
        """,
    ],
    "scan-carry": [
        """
        import jax.numpy as jnp
        from jax import lax
        def step(avg, x):
            avg = 0.9 * avg + 0.1 * x
            return avg, avg
        counts = jnp.array([10, 12, 11, 15, 14])
        _, smoothed = lax.scan(step, counts[0], counts[1:])  # <- scan-carry-type-mismatch
        """,
        """
        import jax
        import jax.numpy as jnp
        scan = jax.lax.scan
        def run(xs):
            def body(c, x):
                return (c, c), x
            return scan(body, jnp.zeros(2), xs)  # <- scan-carry-type-mismatch
        def main():
            run(jnp.ones((5, 2)))
        main()
        """,
        """
        import jax.numpy as jnp
        from jax.lax import fori_loop
        def body(i, total):
            return jnp.zeros(3)
        total = fori_loop(0, 4, body, jnp.zeros(2))  # <- scan-carry-type-mismatch
        """,
    ],
    "cond": [
        """
        import jax
        import jax.numpy as jnp
        from jax import lax
        @jax.jit
        def safe(a, b):
            return lax.cond(jnp.all(b > 0), lambda: a / b, lambda: 0)  # <- cond-branch-output-mismatch
        safe(jnp.array([1.0, 2.0]), jnp.array([2.0, 4.0]))
        """,
        """
        import jax.numpy as jnp
        from jax.lax import switch
        def pick(i, x):
            return switch(i, [lambda x: x, lambda x: x.sum()], x)  # <- cond-branch-output-mismatch
        pick(1, jnp.ones(3))
        """,
    ],
    "vmap": [
        """
        import jax
        import jax.numpy as jnp
        def h(a, b):
            return jnp.sum(a) + jnp.sum(b)
        X = jnp.ones((10, 4))
        U = jnp.ones((10, 2))
        jax.vmap(h, in_axes=(0, 1))(X, U)  # <- vmap-inconsistent-sizes
        """,
        """
        from jax import vmap
        import jax.numpy as jnp
        import numpy as onp
        def h(a, b):
            return jnp.sum(a) + jnp.sum(b)
        batched = vmap(h, in_axes=(0, 1))
        def main():
            return batched(onp.random.randn(10, 4), onp.random.randn(10, 2))  # <- vmap-inconsistent-sizes
        main()
        """,
    ],
    "grad": [
        """
        import jax
        import jax.numpy as jnp
        def loss(x):
            return x * 2
        g = jax.grad(loss)(jnp.ones(3))  # <- grad-non-scalar-output
        """,
        """
        from jax import grad
        def square(x):
            return x ** 2
        val = 3
        dfn = grad(square)
        print(dfn(val))  # <- grad-integer-input
        """,
    ],
    "keys": [
        """
        import jax
        key = jax.random.key(0)
        keys = jax.random.split(key, 3)
        z = jax.random.normal(keys, (2,))  # <- random-batched-keys
        """,
        """
        import jax
        import jax.numpy as jnp
        def dropout(key, x, rate=0.5):
            keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)  # <- random-batched-keys
            return jnp.where(keep, x / (1.0 - rate), 0.0)
        key = jax.random.PRNGKey(0)
        batch = jnp.ones((4, 3))
        print(dropout(jax.random.split(key, batch.shape[0]), batch))
        """,
    ],
    "stated-by-annotation-or-assert": [
        """
        import jax
        import jax.numpy as jnp
        spec = jax.ShapeDtypeStruct((6,), jnp.float32)
        out = jax.eval_shape(lambda v: v, spec)
        def h(v):
            return v.reshape(4, 2)  # <- reshape-size-mismatch
        h(jnp.zeros(spec.shape, spec.dtype))
        """,
        """
        from jaxtyping import Array, Float
        def f(x: Float[Array, "5 3"], w: Float[Array, "4 2"]):
            return x @ w  # <- dot-contraction-dim-mismatch
        """,
        """
        import jax.numpy as jnp
        def g(x, w):
            assert x.shape == (5, 3)
            assert w.shape == (4, 2)
            return jnp.dot(x, w)  # <- dot-contraction-dim-mismatch
        """,
    ],
    "custom-vjp": [
        """
        import jax
        import jax.numpy as jnp
        @jax.custom_vjp
        def clip_gradient(x, limit):
            return x
        def clip_fwd(x, limit):
            return x, limit
        def clip_bwd(limit, g):
            return jnp.clip(g, -limit, limit)
        clip_gradient.defvjp(clip_fwd, clip_bwd)
        loss = lambda x: jnp.sum(clip_gradient(x, 1.0) ** 2)
        print(jax.grad(loss)(jnp.array([0.3, 2.0, -5.0])))  # <- custom-vjp-bwd-output-structure
        """,
        """
        from jax import custom_vjp, grad
        import jax.numpy as jnp
        def scale(x, s):
            return x * s
        scaled = custom_vjp(scale)
        def fwd(x, s):
            return scale(x, s), (x, s)
        def bwd(res, g):
            x, s = res
            return (g * s, g * x, g)
        scaled.defvjp(fwd, bwd)
        def main():
            return grad(lambda x: scaled(x, 2.0))(1.0)  # <- custom-vjp-bwd-output-structure
        main()
        """,
    ],
    "concrete-under-jit": [
        """
        from jax import jit
        from jax.nn import one_hot
        jit(one_hot)(3, 5)  # <- concretization-traced-value
        """,
    ],
}

QUIET: dict[str, str] = {
    "matmul fixed": """
        import jax.numpy as jnp
        x = jnp.ones((5, 3))
        w = jnp.ones((3, 2))
        y = x @ w
        """,
    "list appended to before stack": """
        import jax.numpy as jnp
        parts = []
        for k in range(3):
            parts.append(jnp.ones(2) * k)
        print(jnp.stack(parts))
        """,
    "a concrete array as a size outside jit": """
        import jax.numpy as jnp
        n = jnp.array(3)
        z = jnp.zeros(n)
        """,
    "a name rebound in a branch": """
        import jax.numpy as jnp
        import sys
        w = jnp.ones((4, 2))
        if len(sys.argv) > 1:
            w = jnp.ones((3, 2))
        y = jnp.ones((5, 3)) @ w
        """,
    "a loop changes the carry's name": """
        import jax.numpy as jnp
        x = jnp.ones(3)
        for _ in range(2):
            x = jnp.concatenate([x, x])
        y = x.reshape(3, 4)
        """,
    "x64 on: dtypes differ": """
        import jax
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        y = jnp.ones((5, 3)) @ jnp.ones((4, 2))
        """,
    "scan carry kept": """
        import jax.numpy as jnp
        from jax import lax
        def step(c, x):
            return c + x, c
        lax.scan(step, jnp.zeros(()), jnp.arange(5.0))
        """,
    "named jaxtyping sizes are not known": """
        from jaxtyping import Array, Float
        def f(x: Float[Array, "b n"], w: Float[Array, "m k"]):
            return x @ w
        """,
    "custom_vjp with a bwd of the arguments' structure": """
        import jax
        import jax.numpy as jnp
        @jax.custom_vjp
        def clip_gradient(x, limit):
            return x
        def clip_fwd(x, limit):
            return x, limit
        def clip_bwd(limit, g):
            return jnp.clip(g, -limit, limit), None
        clip_gradient.defvjp(clip_fwd, clip_bwd)
        print(jax.grad(lambda x: jnp.sum(clip_gradient(x, 1.0) ** 2))(jnp.array([0.3, 2.0])))
        """,
    "an axis a caller binds": """
        import jax
        import jax.numpy as jnp
        def total(x):
            return jax.lax.psum(x, "i")
        print(jax.vmap(total, axis_name="i")(jnp.ones(3)))
        """,
}


def _expected(source: str) -> set[tuple[int, str]]:
    return {
        (number, found.group(1))
        for number, line in enumerate(source.splitlines())
        if (found := _MARK.search(line))
    }


def _cases() -> list[tuple[str, str]]:
    return [
        (f"{name}-{k}", textwrap.dedent(source))
        for name, variants in FAILING.items()
        for k, source in enumerate(variants)
    ]


@pytest.mark.parametrize(("name", "source"), _cases())
def test_each_variant_is_warned_on_its_line(name: str, source: str) -> None:
    expected = _expected(source)
    found = {(f.line, f.entry) for f in check_source(source) if f.rule == "shapes"}
    assert expected <= found, (name, found)
    assert {line for line, _ in found} <= {line for line, _ in expected}


@pytest.mark.parametrize("name", sorted(QUIET))
def test_fixed_and_uncertain_code_is_quiet(name: str) -> None:
    assert [f for f in check_source(textwrap.dedent(QUIET[name])) if f.rule == "shapes"] == []


@pytest.mark.jax
@pytest.mark.parametrize("name", sorted(FAILING))
def test_the_message_is_the_one_jax_prints(name: str) -> None:
    """The first variant run by real JAX: the finding's message is the exception's."""
    source = textwrap.dedent(FAILING[name][0])
    finding = next(f for f in check_source(source) if f.rule == "shapes")
    done = subprocess.run(
        [sys.executable, "-c", source], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode != 0
    exception, _, first = finding.message.splitlines()[0].partition(": ")
    # JAX prints the class qualified (jax.errors.ConcretizationTypeError) and may add notes.
    last = [line for line in done.stderr.splitlines() if f"{exception}: " in line][-1]
    assert last.partition(f"{exception}: ")[2].startswith(first[:100]), (first, last)


def test_ignore_comment_silences_the_line() -> None:
    source = "import jax.numpy as jnp\ny = jnp.ones((5, 3)) @ jnp.ones((4, 2))\n"
    assert [f.entry for f in check_source(source)] == ["dot-contraction-dim-mismatch"]
    silenced = source.replace("\n", "  # jaxerr: ignore[dot-contraction-dim-mismatch]\n")
    assert check_source(silenced) == []


def test_notebook_cells_are_one_program() -> None:
    cells = [
        ("a", "import jax.numpy as jnp\nw = jnp.ones((4, 2))\n"),
        ("b", "x = jnp.ones((5, 3))\ny = x @ w\n"),
    ]
    found = [(key, f.line, f.entry) for key, f in check_cells(cells)]
    assert found == [("b", 1, "dot-contraction-dim-mismatch")]


def test_without_jax_to_ask_nothing_is_predicted() -> None:
    model = analyze("import jax.numpy as jnp\ny = jnp.ones((5, 3)) @ jnp.ones((4, 2))\n")
    assert model is not None
    assert events(model, NoOracle()) == []
    assert list(ShapesRule(NoOracle()).check(model)) == []


def test_an_interpreter_without_jax_says_nothing() -> None:
    rules = rules_for(None, "/nonexistent/python")
    source = "import jax.numpy as jnp\ny = jnp.ones((5, 3)) @ jnp.ones((4, 2))\n"
    assert [f for f in check_source(source, rules) if f.rule == "shapes"] == []


EAGER_SHARD_MAP = """
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("x",))


def body(x):
    ref = jax.new_ref(x)
    ref[...] += 1
    return ref[...]

"""


@pytest.mark.parametrize(
    ("tail", "warned"),
    [
        # the shipped example: built and called at module level
        (
            "f = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())\nprint(f(jnp.arange(4.0)))\n",
            True,
        ),
        # moved into main() and called there
        (
            "def main():\n    f = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())\n"
            "    print(f(jnp.arange(4.0)))\n\n\nif __name__ == '__main__':\n    main()\n",
            True,
        ),
        # called in place, in a helper main() calls
        (
            "def run(x):\n    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)\n"
            "def main():\n    run(jnp.arange(4.0))\nmain()\n",
            True,
        ),
        # main() jitted: quiet
        (
            "def main():\n    f = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())\n"
            "    return f(jnp.arange(4.0))\njax.jit(main)()\n",
            False,
        ),
        # built in a function and returned, called elsewhere: not certain
        (
            "def make():\n    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())\n"
            "g = jax.jit(make())\n",
            False,
        ),
    ],
)
def test_eager_shard_map_follows_the_code(tail: str, warned: bool) -> None:
    found = [f for f in check_source(EAGER_SHARD_MAP + tail) if f.entry == "eager-shard-map-ref"]
    assert bool(found) is warned
    if warned:
        assert found[0].line == EAGER_SHARD_MAP.splitlines().index("    ref = jax.new_ref(x)")


def test_eager_shard_map_aliased_and_imported_bare() -> None:
    source = EAGER_SHARD_MAP.replace(
        "import jax.numpy as jnp", "import jax.numpy as jnp\nfrom jax import shard_map as smap"
    )
    source += "def main():\n    f = smap(body, mesh=mesh, in_specs=P(), out_specs=P())\n    f(jnp.arange(4.0))\nmain()\n"
    assert "eager-shard-map-ref" in {f.entry for f in check_source(source)}


def test_the_interpreter_setting_may_name_an_environment(tmp_path: Path) -> None:
    python = tmp_path / "env" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("")
    assert python_of(str(tmp_path / "env")) == str(python)
    assert python_of(sys.executable) == sys.executable
