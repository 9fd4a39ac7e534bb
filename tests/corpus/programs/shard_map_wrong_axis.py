# expect: AssertionError
# message: (none)
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

mesh = Mesh(np.array(jax.devices()[:1]), ("x",))


def total(block):
    return jax.lax.psum(block, "y")  # user-line


f = shard_map(total, mesh=mesh, in_specs=P("x"), out_specs=P())
print(f(jnp.ones(4)))
