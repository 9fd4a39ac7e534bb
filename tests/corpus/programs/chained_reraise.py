# expect: RuntimeError
# message: training step failed
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    if x.sum() > 0:
        return x
    return -x


def train(x):
    try:
        return step(x)
    except jax.errors.TracerBoolConversionError as e:
        raise RuntimeError("training step failed") from e  # user-line


train(jnp.ones(2))
