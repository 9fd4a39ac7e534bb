# expect: if-to-where
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    if x > 0:
        return x
    return jnp.zeros_like(x)


print(relu(jnp.array([-1.0, 2.0])))
