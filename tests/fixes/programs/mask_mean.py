# expect: mask-reduce-where
import jax
import jax.numpy as jnp


@jax.jit
def mean_positive(x):
    return x[x > 0].mean()


print(mean_positive(jnp.array([-1.0, 2.0, 0.0, 4.0])))
