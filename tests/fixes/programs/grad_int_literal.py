# expect: int-to-float-literal
import jax


def polynomial(x):
    return 3 * x**3 - 2 * x**2 + x - 5


print(jax.grad(polynomial)(2))
