# expect: ValueError
# message: array split does not result in an equal division
import jax.numpy as jnp

jnp.split(jnp.arange(5), 2)  # user-line
