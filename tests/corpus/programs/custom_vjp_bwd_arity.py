# expect: TypeError
# message: Custom VJP bwd rule must produce an output with the same container
import jax


@jax.custom_vjp
def f(x, y):
    return x * y


def f_fwd(x, y):
    return f(x, y), (x, y)


def f_bwd(res, g):
    x, y = res
    return (g * y,)


f.defvjp(f_fwd, f_bwd)
jax.grad(f)(2.0, 3.0)  # user-line
