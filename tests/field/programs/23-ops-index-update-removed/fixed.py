import jax
import jax.numpy as jnp
x = jnp.zeros(5)
x = x.at[0].set(1)
print(x)
