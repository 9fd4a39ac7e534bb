import jax
import jax.numpy as jnp

spec = jax.P("x")
print(spec, jnp.ones(2))
