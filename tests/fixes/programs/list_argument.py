# expect: list-to-asarray
import jax.numpy as jnp

print(jnp.sum([1, 2, 3]))
