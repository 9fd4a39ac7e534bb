# expect: TypeError
# message: dynamic_slice
import jax.numpy as jnp
from jax import lax

lax.dynamic_slice(jnp.ones((3, 3)), (0,), (2, 2))  # user-line
