import jax
import jax.numpy as jnp

matrix = jax.experimental.sparse.BCOO.fromdense(jnp.eye(3))
print(matrix.nse)
