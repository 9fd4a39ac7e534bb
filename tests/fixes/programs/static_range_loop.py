# expect: mark-static
import jax
import jax.numpy as jnp


@jax.jit
def repeat_double(x, times):
    for _ in range(times):
        x = x * 2
    return x


print(repeat_double(jnp.ones(2), 3))
