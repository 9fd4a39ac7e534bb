# expect: lax-to-jnp
import jax.numpy as jnp
from jax import lax

print(lax.add(jnp.float32(1), jnp.int32(1)))
