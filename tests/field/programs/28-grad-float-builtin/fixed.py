import jax as api
import jax.numpy as jnp

def func(x):
   return jnp.where(x >= 0., x, -x)
print(api.grad(func)(3.))
