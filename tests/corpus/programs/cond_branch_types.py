# expect: TypeError
# message: cond branches must have equal output types
import jax
import jax.numpy as jnp


def f(p, x):
    return jax.lax.cond(p, lambda v: v, lambda v: v.astype(jnp.int32), x)  # user-line


f(True, jnp.ones(3))
