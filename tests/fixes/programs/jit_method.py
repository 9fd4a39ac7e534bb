# expect: jit-method-static-self
import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @jax.jit
    def apply(self, x):
        return x * self.factor


s = Scaler(3.0)
print(s.apply(jnp.arange(4.0)))
