# expect: SyntaxError
# message: '(' was never closed
import jax.numpy as jnp

x = jnp.dot(jnp.ones(2), jnp.ones(2)  # user-line
