# expect: ValueError
# message: Non-hashable static arguments are not supported
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def f(x, cfg):
    return x * cfg["scale"]


f(jnp.ones(3), {"scale": 2.0})  # user-line
