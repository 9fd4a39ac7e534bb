# expect: TypeError
# message: Shapes must be 1D sequences of concrete values of integer type
import jax
import jax.numpy as jnp


@jax.jit
def f(n):
    return jnp.zeros((n, 2))  # user-line


f(3)
