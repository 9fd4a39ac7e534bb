import jax
import numpy as np


@jax.jit
def print_yay(arr, msg):
    print(msg)
    print(arr)

print_yay(np.array([5, 3, 2, 2020]), "this is my message!")
