# expect: TypeError
# message: Cannot concatenate arrays with different numbers of dimensions
import jax.numpy as jnp

jnp.concatenate([jnp.ones((2, 2)), jnp.ones(2)])  # user-line
