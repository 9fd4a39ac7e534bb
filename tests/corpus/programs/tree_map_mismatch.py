# expect: ValueError
# message: pytree structure error: different lengths of tuple
import jax

jax.tree_util.tree_map(lambda a, b: a + b, (1, 2), (1, 2, 3))  # user-line
