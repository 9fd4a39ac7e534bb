# expect: jax.errors.TracerIntegerConversionError
# message: The __index__() method was called on traced array
import jax
import jax.numpy as jnp

TABLE = [10, 20, 30]


@jax.jit
def f(i):
    return TABLE[i]  # user-line


f(jnp.int32(1))
