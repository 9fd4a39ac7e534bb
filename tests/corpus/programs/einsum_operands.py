# expect: ValueError
# message: must be equal to the number of operands
import jax.numpy as jnp

jnp.einsum("ij,jk->ik", jnp.ones((2, 2)))  # user-line
