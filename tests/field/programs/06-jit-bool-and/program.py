import jax

@jax.jit
def f(qiaoqiao):
  if True and qiaoqiao:
    return 1
  return 0

f(True)
