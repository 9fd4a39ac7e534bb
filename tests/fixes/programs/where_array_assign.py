# expect: if-to-where
import jax
import jax.numpy as jnp


@jax.jit
def clip_negative(x):
    if x < 0:
        y = 0.0 * x
    else:
        y = x
    return y


print(clip_negative(jnp.linspace(-1.0, 1.0, 5)))
