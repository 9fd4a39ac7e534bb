import jax
def foo(x):
  return x[0] + 1
jfoo = jax.jit(foo, static_argnums=(0,))
jfoo((2,)) # ValueError: Non-hashable static arguments are not supported. An error occurred while trying to hash an object of type <class 'list'>, [3].
