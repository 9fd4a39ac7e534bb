import jax
import jax.numpy as jnp

def f(x):
  return x['a']
input = {'a': jnp.zeros((3, 3))}
jax.vmap(f, in_axes=({'a': 0},))(input)
