# expect: cond-to-where
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def soft_clip(x):
    return lax.cond(x > 1.0, lambda v: v * 0.5, lambda v: v, x)


print(soft_clip(jnp.array([0.5, 3.0, 1.2])))
