# expect: TypeError
# message: cannot reshape array of shape (6,)
import jax.numpy as jnp

x = jnp.arange(6)
x.reshape(4, 2)  # user-line
