import jax
import jax.numpy as jnp


def step(x):
    return x * 2.0


fast_step = jax.jit(step, donate_args=(0,))
print(fast_step(jnp.ones(3)))
