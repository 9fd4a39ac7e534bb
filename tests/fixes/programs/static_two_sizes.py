# expect: mark-static
import jax
import jax.numpy as jnp


def grid(n, m):
    return jnp.zeros((n, m)) + 1.0


print(jax.jit(grid)(16, 8).shape)
