# expect: int-seed-to-key
import jax

print(jax.random.uniform(42, (3,)))
