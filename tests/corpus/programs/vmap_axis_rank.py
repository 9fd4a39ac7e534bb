# expect: ValueError
# message: vmap was requested to map its argument along axis 1
import jax
import jax.numpy as jnp

jax.vmap(jnp.sum, in_axes=1)(jnp.ones(3))  # user-line
