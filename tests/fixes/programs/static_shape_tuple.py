# expect: mark-static
import jax
import jax.numpy as jnp


@jax.jit
def blank(shape, fill):
    return jnp.full(shape, fill)


print(blank((2, 2), 3.0))
