# expect: numpy-to-jnp
import jax
import numpy as np


@jax.jit
def energy(x):
    return np.sum(np.sin(x) ** 2)


print(energy(jax.numpy.ones(3)))
