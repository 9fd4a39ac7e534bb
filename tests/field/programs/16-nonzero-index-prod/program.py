import jax
import jax.numpy as jnp

def f(a):
   return a[jnp.nonzero(a)].prod() 

print(jax.jit(f)(jnp.array([0, 1, 2, 0, 3])))
