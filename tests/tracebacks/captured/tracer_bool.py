# expect: jax.errors.TracerBoolConversionError
# message: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    if x.sum() > 0:  # user-line
        return -x
    return x


f(jnp.ones(3))
