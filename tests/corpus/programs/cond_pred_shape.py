# expect: TypeError
# message: Pred must be a scalar
import jax
import jax.numpy as jnp

jax.lax.cond(jnp.array([True, False]), lambda: 1, lambda: 2)  # user-line
