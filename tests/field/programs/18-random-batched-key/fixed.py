import jax

batch_size = 8
sample_shape = (batch_size,)
rng = jax.random.PRNGKey(0)
rng = jax.random.split(rng, batch_size)

jax.vmap(jax.random.normal)(rng)
