from jax import grad

def f(x,y):
    return x+y

df = grad(f, argnums=0)

from functools import partial

partial(f, x = 0.)(y = 1)
# 1.0

partial(df, x = 0.)(y = 1)
# IndexError: tuple index out of range
