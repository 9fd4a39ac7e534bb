# expect: jit-method-static-self
import jax
import jax.numpy as jnp


class Counter:
    def __init__(self):
        self.scale = 1.0

    @jax.jit
    def apply(self, x):
        return x * self.scale

    def bump(self):
        self.scale += 1.0


c = Counter()
print(c.apply(jnp.ones(2)))
