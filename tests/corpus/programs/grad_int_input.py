# expect: TypeError
# message: grad requires real- or complex-valued inputs
import jax


def f(x):
    return x * 2


jax.grad(f)(3)  # user-line
