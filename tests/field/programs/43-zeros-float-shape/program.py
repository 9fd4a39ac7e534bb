import jax.numpy as jnp
jnp.zeros(1.0)
