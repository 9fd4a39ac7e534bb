import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import mosaic_gpu as plgpu


def kernel(x_ref, o_ref):
    peer = plgpu.remote_ref(x_ref[...], device_id=1)
    o_ref[...] = peer[...]


x = jnp.ones((8, 128), jnp.float32)
call = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))
if jax.default_backend() == "gpu":
    print(call(x))
else:
    # Mosaic GPU cannot lower on a CPU: tracing the kernel is what a CPU can check.
    print(jax.make_jaxpr(call)(x))
