"""NumPy calls on a traced value: `numpy-on-traced` flags exactly those that JAX answers with
TracerArrayConversionError (NumPy converting the tracer with `__array__`), checked by running each
call in a jitted function under real JAX. `np.isdtype(x, ...)` fails with NumPy's own TypeError for
any JAX array (not a conversion, no JAX error); `np.issubdtype`, `np.dtype`, `np.result_type`...
read the dtype and run; `np.sum(x)`, `np.reshape(x, s)`... call the array's own method and run."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from jaxerr_ls.rules import check_source

CALLS = [
    "np.isdtype(x, 'real floating')",
    "np.isdtype(x, 'integral')",
    "np.issubdtype(x, np.floating)",
    "np.dtype(x)",
    "np.finfo(x)",
    "np.iinfo(x)",
    "np.can_cast(x, np.float64)",
    "np.result_type(x)",
    "np.promote_types(x, np.float32)",
    "np.common_type(x)",
    "np.min_scalar_type(x)",
    "np.asarray(x)",
    # Functions that call the argument's own method, or only index it: they run.
    "np.sum(x)",
    "np.mean(x, axis=0)",
    "np.max(x)",
    "np.amin(x)",
    "np.prod(x)",
    "np.any(x > 0)",
    "np.std(x)",
    "np.argmax(x)",
    "np.cumsum(x)",
    "np.round(x, 2)",
    "np.reshape(x, (-1,))",
    "np.transpose(x)",
    "np.squeeze(x)",
    "np.swapaxes(x, 0, 1)",
    "np.moveaxis(x, 0, 1)",
    "np.flip(x)",
    "np.split(x, 2)",
    "np.repeat(x, 2)",
    "np.real(x)",
    "np.array_equal(x, x)",
    # and functions that convert: a ufunc, a function of several arrays, a reshaping copy.
    "np.exp(x)",
    "np.maximum(x, 1.0)",
    "np.concatenate([x, x])",
    "np.ravel(x)",
    "np.clip(x, 0.0, 1.0)",
    "np.where(x > 0, x, 0.0)",
    "np.linalg.norm(x)",
]
# The argument each call gets: a float, an int for the calls about integers, a matrix for the
# calls on arrays.
VALUES = {"np.iinfo(x)": "jnp.int32(1)", "np.isdtype(x, 'integral')": "jnp.int32(1)"}
ARRAY_CALLS = CALLS[CALLS.index("np.sum(x)") :]


def _program(call: str) -> str:
    return (
        "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"
        f"@jax.jit\ndef f(x):\n    y = {call}\n    return x\n"
    )


def _flagged(call: str) -> bool:
    return any(f.entry == "tracer-array-conversion" for f in check_source(_program(call)))


def test_dtype_calls_are_not_conversions() -> None:
    flagged = {call for call in CALLS if _flagged(call)}
    converting = CALLS[CALLS.index("np.exp(x)") :]
    assert flagged == {"np.min_scalar_type(x)", "np.asarray(x)", *converting}


RUN_ALL = """
import json, jax, jax.numpy as jnp, numpy as np
out = {}
for call, value in json.loads(CASES):
    f = jax.jit(eval("lambda x: (" + call + ", x)[1]"))
    try:
        f(eval(value))
        out[call] = "ok"
    except Exception as error:
        out[call] = type(error).__name__
print(json.dumps(out))
"""


@pytest.mark.jax
def test_flagged_exactly_where_jax_raises_tracer_array_conversion() -> None:
    cases = [
        (call, "jnp.ones((2, 2))" if call in ARRAY_CALLS else VALUES.get(call, "jnp.float32(1.0)"))
        for call in CALLS
    ]
    program = f"CASES = {json.dumps(json.dumps(cases))}\n" + RUN_ALL
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    raised = json.loads(done.stdout.splitlines()[-1])
    assert raised["np.isdtype(x, 'real floating')"] == "TypeError"
    assert raised["np.min_scalar_type(x)"] == "TracerArrayConversionError"
    assert raised["np.sum(x)"] == "ok" and raised["np.exp(x)"] == "TracerArrayConversionError"
    for call in CALLS:
        assert _flagged(call) == (raised[call] == "TracerArrayConversionError"), (call, raised)
