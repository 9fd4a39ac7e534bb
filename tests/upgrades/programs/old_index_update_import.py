import jax.numpy as jnp
from jax.ops import index_update

print(index_update(jnp.zeros(3), 0, 1.0))
