# expect: jax.experimental.checkify.JaxRuntimeError
# message: x must be positive
import jax.numpy as jnp
from jax.experimental import checkify


def f(x):
    checkify.check(x > 0, "x must be positive")
    return x


err, _ = checkify.checkify(f)(jnp.float32(-1.0))
err.throw()  # user-line
