# expect: ExceptionGroup
# message: 2 shards failed
import jax.numpy as jnp


def load(i):
    return jnp.ones(3).reshape(2, i)


errors = []
for i in (4, 5):
    try:
        load(i)
    except TypeError as e:
        errors.append(e)
raise ExceptionGroup("2 shards failed", errors)  # user-line
