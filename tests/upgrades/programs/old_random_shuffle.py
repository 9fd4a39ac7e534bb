import jax
import jax.numpy as jnp

key = jax.random.key(0)
order = jax.random.shuffle(key, jnp.arange(10))
print(order)
