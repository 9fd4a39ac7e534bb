"""Truth for the fixes: each program raises under real JAX; the program `fixes_for` fixes runs clean."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from jaxerr_ls.fixes import FixContext, apply_edits, fixes_for
from tests.fixes.helpers import line_of

pytestmark = pytest.mark.jax


@dataclass(frozen=True)
class Case:
    fix_id: str
    program: str
    at: str  # text on the line the traceback points at
    exception: str  # what the program raises before the fix
    fields: Mapping[str, str] = field(default_factory=dict)


CASES = [
    Case(
        "wrap-jit",
        """\
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("x",))


def body(x):
    ref = jax.new_ref(x)
    ref[...] += 1
    return ref[...]


f = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())
print(f(jnp.arange(4.0)))
""",
        "ref = jax.new_ref(x)",
        "ValueError",
    ),
    Case(
        "mark-static",
        """\
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, n):
    if n > 0:
        return x * n
    return x


print(scale(jnp.ones(3), 2))
""",
        "if n > 0",
        "TracerBoolConversionError",
    ),
    Case(
        "at-set",
        "import jax.numpy as jnp\n\nx = jnp.zeros(3)\nx[0] += 1.0\nprint(x)\n",
        "x[0] += 1.0",
        "TypeError",
    ),
    Case(
        "numpy-to-jnp",
        """\
import jax
import numpy as np


@jax.jit
def f(x):
    return np.sum(np.sin(x))


print(f(jax.numpy.ones(3)))
""",
        "return np.sum",
        "TracerArrayConversionError",
    ),
    Case(
        "int-to-float-literal",
        """\
import jax


def polynomial(x):
    return 3 * x**3 - 2 * x**2 + x - 5


slope = jax.grad(polynomial)
print("f'(2) =", slope(2))
""",
        "slope(2)",
        "TypeError",
        {"fun": "grad", "dtype": "int32"},
    ),
    Case(
        "list-to-tuple",
        """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("shape",))
def make(x, shape):
    return jnp.broadcast_to(x, shape)


print(make(1.0, shape=[2, 3]))
""",
        "print(make(",
        "ValueError",
    ),
    Case(
        "int-seed-to-key",
        """\
import jax
import jax.numpy as jnp


def add_noise(x, seed, scale=0.1):
    noise = jax.random.normal(seed, x.shape)
    return x + scale * noise


print(add_noise(jnp.linspace(0.0, 1.0, 5), 0))
""",
        "noise = jax.random.normal",
        "TypeError",
        {"seed": "0"},
    ),
    Case(
        "has-aux",
        """\
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    logits = x @ w
    loss = jnp.mean((logits - y) ** 2)
    accuracy = jnp.mean(jnp.sign(logits) == jnp.sign(y))
    return loss, accuracy


w = jnp.zeros(3)
x = jnp.array([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]])
y = jnp.array([1.0, -1.0])
print(jax.grad(loss_fn)(w, x, y))
""",
        "print(jax.grad(loss_fn)",
        "TypeError",
    ),
    Case(
        "list-to-asarray",
        "import jax.numpy as jnp\n\nprint(jnp.sum([1, 2, 3]))\n",
        "jnp.sum(",
        "TypeError",
    ),
    Case(
        "lax-to-jnp",
        "import jax.numpy as jnp\nfrom jax import lax\n\nprint(lax.add(jnp.float32(1), jnp.int32(1)))\n",
        "lax.add",
        "TypeError",
    ),
    Case(
        "split-to-array-split",
        "import jax.numpy as jnp\n\nparts = jnp.split(jnp.arange(5), 2)\nprint(parts)\n",
        "jnp.split",
        "ValueError",
    ),
    Case(
        "if-to-where",
        """\
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    if x > 0:
        return x
    return jnp.zeros_like(x)


print(relu(3.0))
""",
        "if x > 0",
        "TracerBoolConversionError",
    ),
    Case(
        "grad-to-jacobian",
        """\
import jax
import jax.numpy as jnp


def rates(params):
    alpha, beta = params
    return jnp.stack([alpha * 10.0, beta * 5.0])


print(jax.grad(rates)(jnp.array([1.1, 0.4])))
""",
        "print(jax.grad(rates)",
        "TypeError",
    ),
    Case(
        "pass-ref-not-value",
        """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import mosaic_gpu as plgpu


def kernel(x_ref, o_ref):
    peer = plgpu.remote_ref(x_ref[...], device_id=1)
    o_ref[...] = peer[...]


x = jnp.ones((8, 128), jnp.float32)
call = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))
# Mosaic GPU cannot lower on a CPU: tracing the kernel is what a CPU can check.
print(jax.make_jaxpr(call)(x))
""",
        "peer = plgpu.remote_ref",
        "TypeError",
    ),
    Case(
        "dynamic-slice",
        """\
import jax
import jax.numpy as jnp


@jax.jit
def window(signal, start):
    w = signal[start:start + 3]
    return w / w.sum()


signal = jnp.arange(1.0, 9.0)
for start in range(3):
    print(window(signal, start))
""",
        "w = signal[start:start + 3]",
        "IndexError",
    ),
    Case(
        "mark-static-at-call",
        """\
import jax
import jax.numpy as jnp


def combine(x, how, norm):
    y = jnp.sum(x) if how == "sum" else jnp.max(x)
    return y / x.size if norm == "mean" else y


print(jax.jit(combine)(jnp.arange(4.0), "sum", "mean"))
""",
        "print(jax.jit(combine)",
        "TypeError",
        {"name": "how"},
    ),
    Case(
        "jit-method-static-self",
        """\
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
""",
        "print(s.apply(",
        "TypeError",
        {"name": "self"},
    ),
    Case(
        "cond-to-where",
        """\
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def soft_clip(x):
    return lax.cond(x > 1.0, lambda v: v * 0.5, lambda v: v, x)


print(soft_clip(jnp.array([0.5, 3.0, 1.2])))
""",
        "return lax.cond",
        "TypeError",
    ),
    Case(
        "mask-reduce-where",
        """\
import jax
import jax.numpy as jnp


@jax.jit
def positive_total(x):
    return x[x > 0].sum()


print(positive_total(jnp.array([-1.0, 2.0, 0.0, 4.0])))
""",
        "return x[x > 0]",
        "NonConcreteBooleanIndexError",
    ),
    Case(
        "static-loop-bounds",
        """\
import jax


@jax.jit
def simulate(rate, num_steps):
    return jax.lax.fori_loop(0, num_steps, lambda i, v: v * (1.0 + rate), 1.0)


def loss(rate, num_steps):
    return (simulate(rate, num_steps) - 2.0) ** 2


print(jax.grad(loss)(0.1, 5))
""",
        "fori_loop",
        "ValueError",
    ),
]


# Runs each program in one interpreter (JAX imported once) and prints how each one ended.
RUNNER = """\
import contextlib, io, json, runpy, sys
results = []
for path in sys.argv[1:]:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(path, run_name="__main__")
        results.append(None)
    except BaseException as exc:
        results.append(type(exc).__name__ + ": " + str(exc)[:300])
print("@@RESULTS@@" + json.dumps(results))
"""


def _run_all(programs: list[str]) -> list[str | None]:
    """None for a program that ran clean, else "ExceptionName: message"."""
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, program in enumerate(programs):
            path = Path(folder) / f"program_{index}.py"
            path.write_text(program, encoding="utf-8")
            paths.append(str(path))
        env = {**os.environ, "JAX_PLATFORMS": "cpu"}
        done = subprocess.run(
            [sys.executable, "-c", RUNNER, *paths],
            capture_output=True,
            text=True,
            env=env,
            timeout=900,
        )
    marker = done.stdout.rpartition("@@RESULTS@@")[2]
    assert marker, done.stderr[-2000:]
    results: list[str | None] = json.loads(marker)
    return results


def _fixed(case: Case) -> str:
    ctx = FixContext(case.program, line_of(case.program, case.at), None, case.fields, "entry")
    found = fixes_for([case.fix_id], ctx)
    assert [p.fix_id for p in found] == [case.fix_id], f"{case.fix_id} not offered"
    return apply_edits(case.program, found[0].edits)


@pytest.fixture(scope="module")
def outcomes() -> dict[str, tuple[str | None, str | None]]:
    pytest.importorskip("jax", reason="needs JAX installed")
    befores = [case.program for case in CASES]
    afters = [_fixed(case) for case in CASES]
    results = _run_all(befores + afters)
    return {case.fix_id: (results[i], results[len(CASES) + i]) for i, case in enumerate(CASES)}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.fix_id)
def test_fix_makes_the_program_run(
    case: Case, outcomes: dict[str, tuple[str | None, str | None]]
) -> None:
    before, after = outcomes[case.fix_id]
    assert before is not None and before.startswith(case.exception + ":"), before
    assert after is None, after
