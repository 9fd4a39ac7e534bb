from jax import grad


def square(x):
  return x**2

val = 3
dfn = grad(square)
print(dfn(val))
