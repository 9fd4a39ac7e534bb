import jax
x = jax.numpy.arange(4)
x = x.at[0].set(1)
