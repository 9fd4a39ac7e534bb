# expect: split-to-array-split
import jax.numpy as jnp

print(jnp.split(jnp.arange(5), 2))
