import jax.numpy as jnp

labels = jnp.array([1, 2, 3, 4])
mask = jnp.in1d(labels, jnp.array([2, 4]))
print(mask)
