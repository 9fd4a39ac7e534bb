from jax import jit
from jax.nn import one_hot

jit(one_hot)(3, 5)
