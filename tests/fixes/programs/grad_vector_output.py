# expect: grad-to-jacobian
import jax
import jax.numpy as jnp


def rates(params):
    return jnp.stack([params[0] * 10.0, params[1] * 5.0])


print(jax.grad(rates)(jnp.array([1.1, 0.4])))
