# expect: TypeError
# message: JAX encountered invalid PRNG key data
import jax
import jax.numpy as jnp

jax.random.normal(jnp.array([1.5, 2.5]), (3,))  # user-line
