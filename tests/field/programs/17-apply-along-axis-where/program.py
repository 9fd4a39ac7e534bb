import numpy as np 
import jax.numpy as jnp

x = np.array([[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 1, 0]])
print(np.apply_along_axis(np.where, 1, x).squeeze())
print(jnp.apply_along_axis(jnp.where, 1, x).squeeze())
