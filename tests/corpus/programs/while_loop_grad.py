# expect: ValueError
# message: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax


def f(x):
    return lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x)  # user-line


jax.grad(f)(1.0)
