# expect: mask-reduce-where
import jax
import jax.numpy as jnp


@jax.jit
def largest_below(x, limit):
    return jnp.max(x[x < limit])


print(largest_below(jnp.array([1.0, 5.0, 3.0]), 4.0))
