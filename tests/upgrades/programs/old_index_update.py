# jax.ops.index_update and index_add (removed in JAX 0.3.2), as users called them:
# `x = jax.ops.index_update(x, [0], 1.)` (https://github.com/oseledets/nla2021/issues/5) and
# `lambda x: jax.ops.index_update(x, t + 1, predicted)` (https://github.com/jax-ml/jax/issues/11706);
# the arrays around them are made up here so the lines run alone.
import jax
import jax.numpy as jnp

x = jnp.zeros(4)
x = jax.ops.index_update(x, [0], 1.0)
t = 1
predicted = jnp.array(7.0)
batch = jax.lax.cond(True, lambda x: jax.ops.index_update(x, t + 1, predicted), lambda x: x, x)
batch = jax.ops.index_add(batch, jax.ops.index[1:3], 2.0)
print(batch.tolist())
