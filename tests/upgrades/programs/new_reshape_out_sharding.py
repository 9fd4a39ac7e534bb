import jax.numpy as jnp

x = jnp.arange(6.0)
print(jnp.reshape(x, (2, 3), out_sharding=None))
