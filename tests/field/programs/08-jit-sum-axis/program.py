import jax.numpy as jnp
from jax import jit
jit(jnp.sum)(jnp.arange(4), 0)
