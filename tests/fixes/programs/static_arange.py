# expect: mark-static
import jax
import jax.numpy as jnp


@jax.jit
def ramp(x, length):
    return x * jnp.arange(length)


print(ramp(2.0, 5))
