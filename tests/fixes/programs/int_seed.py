# expect: int-seed-to-key
import jax
import jax.numpy as jnp


def add_noise(x, seed):
    return x + 0.1 * jax.random.normal(seed, x.shape)


print(add_noise(jnp.linspace(0.0, 1.0, 5), 0))
