import jax

@jax.remat
def f(x):
  if x > 0:
    return x
  else:
    return jnp.sin(x)

f(3.)
