# expect: int-to-float-literal
import jax


def cube(x):
    return x**3


x0 = 4
print(jax.grad(cube)(x0))
