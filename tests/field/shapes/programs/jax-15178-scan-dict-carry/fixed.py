import jax
import jax.numpy as jnp
jax.lax.scan(lambda x, _: (({'a': x[0]['a']},) * 2, None), ({'a': jnp.array(0, 'int32')},) * 2, None, length=1)
