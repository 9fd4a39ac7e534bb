import jax
import jax.numpy as jnp

def return_x(x):
    return 0

def return_z(x):
    x = x.at[0].set(0)
    x = x.at[1:].set(rec(x[1:]))
    return x
    # return jnp.ones_like(x)

@jax.jit
def rec(x):
    return jax.lax.cond(len(x) > 1, return_z, lambda x: 0, x)
    # return cond(len(x) > 1, return_z, return_x, x)

rec(jnp.arange(30))
