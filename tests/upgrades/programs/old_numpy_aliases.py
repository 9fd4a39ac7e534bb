# NumPy-era aliases jax.numpy dropped in 0.4.16 (product, alltrue, sometrue, cumproduct): written
# here (no thread), each the same object as its replacement in JAX 0.4.13.
import jax.numpy as jnp

x = jnp.arange(1.0, 5.0)
print(float(jnp.product(x)), bool(jnp.alltrue(x > 0)), bool(jnp.sometrue(x > 3)))
print(jnp.cumproduct(x).tolist())
