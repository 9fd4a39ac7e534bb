from jax.experimental import optimizers
