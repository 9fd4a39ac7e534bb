# expect: ValueError
# message: Argument to inv must have shape
import jax.numpy as jnp

jnp.linalg.inv(jnp.ones((2, 3)))  # user-line
