import jax.numpy as jn

v = jn.arange(10)
v = v.at[2:4].add(1)  
print(v)
