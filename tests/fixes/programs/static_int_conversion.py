# expect: mark-static
import jax
import jax.numpy as jnp


@jax.jit
def take_first(x, k):
    return x[: int(k)]


print(take_first(jnp.arange(5.0), 3))
