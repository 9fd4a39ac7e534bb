import jax.numpy as jnp
from jax.experimental.maps import xmap

print(xmap(jnp.sin, in_axes=["i"], out_axes=["i"])(jnp.ones(4)))
