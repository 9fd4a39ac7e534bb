import jax.numpy as jnp

x = jnp.linspace(-2.0, 2.0, 5)
print(jnp.clip(x, a_min=0.0, a_max=1.0))
