# expect: jax.errors.ConcretizationTypeError
# message: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


@jax.jit
def f(n):
    return jnp.arange(n)  # user-line


f(3)
