import jax
import jax.numpy as jnp
from jax.experimental import host_callback


@jax.jit
def f(x):
    host_callback.id_print(x)
    return x * 2


print(f(jnp.ones(2)))
