# expect: ValueError
# message: Cannot abstractly evaluate a checkify.check which was not functionalized
import jax
import jax.numpy as jnp
from jax.experimental import checkify


@jax.jit
def f(x):
    checkify.check(x > 0, "x must be positive")  # user-line
    return x


f(jnp.float32(1.0))
