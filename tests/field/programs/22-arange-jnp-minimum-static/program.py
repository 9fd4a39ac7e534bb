import jax.numpy as jnp
import jax
from functools import partial

@partial(jax.jit, static_argnums=(0,))
def foo(n, x):
    n_aval = jnp.shape(x)[0]
    n_actual = jnp.minimum(n_aval, n)
    print(type(n), type(n_aval), type(n_actual))
    return jnp.arange(n_actual)

n = 5
x = jnp.arange(10)
foo(n,x)
