# expect: mark-static
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x, axis):
    return x / jnp.sum(x, axis=axis, keepdims=True)


print(normalize(jnp.ones((2, 3)), 1))
