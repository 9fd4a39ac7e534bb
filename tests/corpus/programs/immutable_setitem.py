# expect: TypeError
# message: JAX arrays are immutable and do not support in-place item assignment
import jax.numpy as jnp

x = jnp.zeros(3)
x[0] = 1.0  # user-line
