import warnings

import jax
import jax.numpy as jnp

warnings.simplefilter("error", DeprecationWarning)
print(jax.tree_map(lambda x: x + 1, {"a": jnp.ones(2)}))
