# expect: TypeError
# message: unsupported operand type
import jax.numpy as jnp

x = jnp.zeros(3)
x.at[0].set(1.0) + "a"  # user-line
