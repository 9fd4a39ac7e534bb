import jax
import jax.numpy as jnp


@jax.jit
def positive_part(x):
    if x.sum() > 0:
        return x
    return -x


def test_first():
    positive_part(jnp.ones(3))


def test_second():
    positive_part(jnp.zeros(3))
