# expect: TypeError
# message: dot_general requires contracting dimensions to have the same shape
import jax.numpy as jnp

a = jnp.ones((2, 3))
b = jnp.ones((4, 5))
jnp.dot(a, b)  # user-line
