# expect: TypeError
# message: Expected a callable value, got
import jax

jax.jit(3)  # user-line
