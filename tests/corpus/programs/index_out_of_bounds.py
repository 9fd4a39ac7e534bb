# expect: IndexError
# message: Too many indices
import jax.numpy as jnp

x = jnp.ones(3)
x[0, 1]  # user-line
