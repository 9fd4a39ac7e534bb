# expect: TypeError
# message: Indexer must have integer or boolean type
import jax.numpy as jnp

x = jnp.arange(4)
x[jnp.float32(1.0)]  # user-line
