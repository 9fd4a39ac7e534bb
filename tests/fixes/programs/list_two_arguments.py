# expect: list-to-asarray
import jax.numpy as jnp

print(jnp.multiply([1.0, 2.0], [3.0, 4.0]))
