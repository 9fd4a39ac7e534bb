# A training script that logs an error instead of letting it propagate (Python's default
# logging format), then goes on with its next configuration.
import logging

import jax.numpy as jnp
from jax import lax

for dtype in (jnp.bfloat16, jnp.float32):
    print(f"Testing dtype {dtype.__name__}")
    try:
        lax.select(jnp.array([True]), jnp.ones(1, dtype), jnp.zeros(1, jnp.float32))
    except TypeError as error:
        logging.error(error)
