import jax
import jax.numpy as jnp

@jax.vmap
def f(x, y):
    return x + y

f(jnp.array([1]), y=jnp.array([1, 2]))
