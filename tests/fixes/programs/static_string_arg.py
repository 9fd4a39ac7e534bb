# expect: mark-static-at-call
import jax
import jax.numpy as jnp


@jax.jit
def activate(x, kind):
    if kind == "relu":
        return jnp.maximum(x, 0.0)
    return jnp.tanh(x)


x = jnp.array([-1.0, 0.5, 2.0])
print(activate(x, "relu"))
print(activate(x, "tanh"))
