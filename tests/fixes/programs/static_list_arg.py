# expect: list-to-tuple
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("shape",))
def make(x, shape):
    return jnp.broadcast_to(x, shape)


print(make(1.0, shape=[2, 3]))
