# expect: TypeError
# message: add got incompatible shapes for broadcasting
import jax.numpy as jnp


def combine(a, b):
    return a + b  # user-line


combine(jnp.ones(3), jnp.ones(4))
