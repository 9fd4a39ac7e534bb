# expect: int-to-float-literal
import jax
import jax.numpy as jnp


def sum_squares(v):
    return jnp.sum(v**2)


print(jax.grad(sum_squares)(jnp.array([1, 2, 3])))
