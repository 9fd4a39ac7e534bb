# expect: mark-static
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, n):
    if n > 0:
        return x * n
    return x


print(scale(jnp.ones(3), 2))
