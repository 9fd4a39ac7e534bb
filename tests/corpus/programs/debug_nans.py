# expect: FloatingPointError
# message: invalid value (nan) encountered in
import jax
import jax.numpy as jnp

with jax.debug_nans(True):
    jnp.log(-jnp.ones(2))  # user-line
