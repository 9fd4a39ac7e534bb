import jax.numpy as jnp

xs = jnp.linspace(0.0, 1.0, 11)
area = jnp.trapz(xs**2, xs)
print(area)
