# expect: TypeError
# message: while_loop body function carry input and carry output must have equal types
import jax
import jax.numpy as jnp

jax.lax.while_loop(lambda c: c < 3, lambda c: (c + 1).astype(jnp.float32), jnp.int32(0))  # user-line
