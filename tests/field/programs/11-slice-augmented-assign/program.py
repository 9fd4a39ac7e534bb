import jax.numpy as jn

v = jn.arange(10)
v[2:4] += 1  
print(v)
