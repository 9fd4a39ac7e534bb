# expect: TypeError
# message: Error interpreting argument to
import jax


@jax.jit
def f(x):
    return x


f("hello")  # user-line
