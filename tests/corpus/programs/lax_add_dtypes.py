# expect: TypeError
# message: lax.add requires arguments to have the same dtypes
import jax.numpy as jnp
from jax import lax

lax.add(jnp.float32(1), jnp.int32(1))  # user-line
