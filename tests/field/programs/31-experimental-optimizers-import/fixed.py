from jax.example_libraries import optimizers
