# expect: mark-static
import jax


@jax.jit
def sample_particles(key, num_particles):
    keys = jax.random.split(key, num_particles)
    return jax.vmap(lambda k: jax.random.normal(k, (2,)))(keys)


print(sample_particles(jax.random.key(0), 4).shape)
