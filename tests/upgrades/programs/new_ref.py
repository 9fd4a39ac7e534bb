import jax
import jax.numpy as jnp

counter = jax.new_ref(jnp.zeros(()))
counter[...] += 1
print(counter[...])
