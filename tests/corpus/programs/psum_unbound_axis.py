# expect: NameError
# message: unbound axis name: batch
import jax
import jax.numpy as jnp


def f(x):
    return jax.lax.psum(x, "batch")  # user-line


f(jnp.ones(2))
