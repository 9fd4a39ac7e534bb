# expect: at-set
import jax.numpy as jnp


def bump(counts, i):
    counts[i] += 1
    return counts


print(bump(jnp.zeros(4, dtype=jnp.int32), 2))
