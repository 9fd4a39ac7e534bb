# expect: TypeError
# message: scan body function carry input and carry output must have
import jax
import jax.numpy as jnp


def body(carry, x):
    return carry.astype(jnp.int32), x


jax.lax.scan(body, jnp.float32(0), jnp.arange(3.0))  # user-line
