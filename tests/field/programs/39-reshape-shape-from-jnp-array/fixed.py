import jax
import numpy as np

import jax.numpy as jnp


x = np.zeros((2 * 3))
z = (2, 3)

expected_res = np.reshape(x, np.array(z, dtype=int))


def b(z):
    return np.array(z, dtype=int)

def a(x, z):
    return jnp.reshape(x, b(z))


jax_res = jax.jit(a, static_argnums=1)(x, z)
