# expect: ValueError
# message: Length of slice indices must match number of operand dimensions
import jax.numpy as jnp
from jax import lax

lax.dynamic_slice(jnp.ones((3, 3)), (0,), (2, 2))  # user-line
