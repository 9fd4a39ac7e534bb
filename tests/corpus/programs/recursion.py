# expect: RecursionError
# message: maximum recursion depth exceeded
import jax.numpy as jnp


def depth(x, n):
    return depth(x + 1, n + 1)  # user-line


depth(jnp.zeros(1), 0)
