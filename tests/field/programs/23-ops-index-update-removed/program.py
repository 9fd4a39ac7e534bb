import jax
import jax.numpy as jnp
x = jnp.zeros(5)
x = jax.ops.index_update(x, [0], 1.)
print(x)
