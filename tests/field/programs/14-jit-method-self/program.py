from jax import jit

class A1:
    def __init__(self):
        # self.f = jax.jit(self.f)
        pass

    @jit
    def f(self, x):
        return x

a = A1()
print(a.f(5))
