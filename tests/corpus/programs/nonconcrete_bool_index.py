# expect: jax.errors.NonConcreteBooleanIndexError
# message: Array boolean indices must be concrete
import jax
import jax.numpy as jnp


@jax.jit
def positive(x):
    return x[x > 0]  # user-line


positive(jnp.arange(-2.0, 3.0))
