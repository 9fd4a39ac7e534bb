import jax
x = jax.numpy.arange(4)
x[0] = 1
