# expect: ValueError
# message: cannot select an axis to squeeze out
import jax
import jax.numpy as jnp

jax.pmap(lambda x: x * 2)(jnp.ones((2, 3)))  # user-line
