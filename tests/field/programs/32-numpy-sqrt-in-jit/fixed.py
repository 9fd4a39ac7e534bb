import numpy as np
import jax.numpy as jnp
from jax import jit

@jit
def mytest(param):
    return jnp.sqrt(jnp.sum(param * np.asarray([3.0, 4.0])))
mytest(jnp.ones((1,)))
