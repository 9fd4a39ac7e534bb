# expect: mask-reduce-where
import jax
import jax.numpy as jnp


@jax.jit
def positive_total(x):
    return x[x > 0].sum()


print(positive_total(jnp.array([-1.0, 2.0, 0.0, 4.0])))
