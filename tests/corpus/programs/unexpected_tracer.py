# expect: jax.errors.UnexpectedTracerError
# message: Encountered an unexpected tracer
import jax
import jax.numpy as jnp

leaked = []


@jax.jit
def f(x):
    leaked.append(x * 2)
    return x


f(jnp.ones(3))
jnp.sum(leaked[0])  # user-line
