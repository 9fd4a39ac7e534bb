from jax import jit
from functools import partial

class A1:
    def __init__(self):
        # self.f = jax.jit(self.f)
        pass

    @partial(jit, static_argnums=0)
    def f(self, x):
        return x

a = A1()
print(a.f(5))
