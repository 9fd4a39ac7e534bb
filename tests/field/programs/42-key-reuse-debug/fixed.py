import jax

with jax.debug_key_reuse(True):
    key = jax.random.key(0)
    key1, key2 = jax.random.split(key)
    vals1 = jax.random.uniform(key1)
    vals2 = jax.random.uniform(key2)  # reused!
