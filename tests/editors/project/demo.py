import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("x",))


@jax.jit
def double(x):
    return 2 * x


def body(x):
    ref = jax.new_ref(x)
    ref[...] += 1
    return ref[...]


f = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())
print(f(double(jnp.arange(4.0))))
