import jax.numpy as jnp

print(jnp.fix(jnp.array([-1.5, 2.5])))
