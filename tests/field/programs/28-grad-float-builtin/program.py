import jax as api

def func(x):
   return x if float(x) >= 0. else -x
print(api.grad(func)(3.))
