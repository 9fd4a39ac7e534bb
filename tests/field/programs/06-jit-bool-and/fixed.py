import jax
import jax.numpy as jnp

@jax.jit
def f(qiaoqiao):
  return jnp.where(True and qiaoqiao, 1, 0)

f(True)
