# expect: if-to-where
import jax
import jax.numpy as jnp


@jax.jit
def leaky_relu(x, slope):
    if x > 0:
        return x
    return slope * x


xs = jnp.linspace(-2.0, 2.0, 5)
for x in xs:
    print(leaky_relu(x, 0.1))
