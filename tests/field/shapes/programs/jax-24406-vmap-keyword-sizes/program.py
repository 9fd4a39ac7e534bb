import jax
import jax.numpy as jnp

def f(x1, x2, a3):
  return jnp.add(x1, x2, a3)

jax.vmap(f)(jnp.ones(2), a3=jnp.ones(1), x2=jnp.ones(2))
