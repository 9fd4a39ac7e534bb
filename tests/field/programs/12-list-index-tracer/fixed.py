import jax
import jax.numpy as jnp
jax.jit(lambda i: jnp.asarray([1, 2, 3])[i])(0)
