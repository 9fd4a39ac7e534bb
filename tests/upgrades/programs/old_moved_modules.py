# Modules that moved out of jax.experimental (0.3.16) and jax.abstract_arrays (0.4.16): written
# here (no thread) with the imports users' code had.
import jax.numpy as jnp
from jax.abstract_arrays import ShapedArray
from jax.experimental import stax

init, apply = stax.serial(stax.Dense(2))
print(ShapedArray((2,), jnp.float32).shape)
