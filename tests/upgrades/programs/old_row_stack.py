import jax.numpy as jnp

rows = jnp.row_stack([jnp.ones(3), jnp.zeros(3)])
print(rows.shape)
