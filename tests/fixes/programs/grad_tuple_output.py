# expect: has-aux
import jax
import jax.numpy as jnp


def loss_fn(w, x):
    pred = x @ w
    return jnp.mean(pred**2), pred


print(jax.grad(loss_fn)(jnp.ones(2), jnp.ones((3, 2))))
