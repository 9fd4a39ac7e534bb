# expect: TypeError
# message: Gradient only defined for scalar-output functions
import jax
import jax.numpy as jnp


def f(x):
    return x * 2


jax.grad(f)(jnp.ones(3))  # user-line
