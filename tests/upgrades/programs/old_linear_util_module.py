import jax.linear_util as lu

print(lu.wrap_init(lambda x: x))
