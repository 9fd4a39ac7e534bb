import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("x",))
x = jax.device_put(jnp.arange(4.0), NamedSharding(mesh, P("x")))
f = jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
print(f(x))
