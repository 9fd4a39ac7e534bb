# expect: ValueError
# message: vmap got inconsistent sizes for array axes to be mapped
import jax
import jax.numpy as jnp

jax.vmap(lambda a, b: a + b)(jnp.ones(3), jnp.ones(4))  # user-line
