# expect: static-loop-bounds
import jax


@jax.jit
def simulate(rate, num_steps):
    return jax.lax.fori_loop(0, num_steps, lambda i, v: v * (1.0 + rate), 1.0)


def loss(rate, num_steps):
    return (simulate(rate, num_steps) - 2.0) ** 2


print(jax.grad(loss)(0.1, 5))
