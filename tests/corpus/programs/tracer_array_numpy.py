# expect: jax.errors.TracerArrayConversionError
# message: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x):
    return np.sin(x)  # user-line


f(jnp.ones(3))
