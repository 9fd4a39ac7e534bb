import jax
import jax.numpy as jnp

def f(a):
  return jnp.where(a != 0, a, 1).prod()

print(jax.jit(f)(jnp.array([0, 1, 2, 0, 3])))
