# expect: cond-to-where
import jax
import jax.numpy as jnp
from jax import lax


def grow(v):
    return v * 2.0


def keep(v):
    return v


@jax.jit
def step(x):
    return lax.cond(x > 0, grow, keep, x)


print(step(jnp.array([-1.0, 1.0])))
