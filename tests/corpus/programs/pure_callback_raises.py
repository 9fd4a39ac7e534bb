# expect: jax.errors.JaxRuntimeError
# message: CpuCallback error
import jax
import jax.numpy as jnp
import numpy as np


def host(x):
    raise ValueError("host side failed")


@jax.jit
def f(x):
    return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


f(jnp.ones(2)).block_until_ready()  # user-line
