# expect: at-set
import jax
import jax.numpy as jnp


@jax.jit
def first_to_zero(x):
    x[0] = 0.0
    return x


print(first_to_zero(jnp.ones(3)))
