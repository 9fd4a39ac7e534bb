from __future__ import print_function

import jax.numpy as np
import numpy as onp

print("numpy", onp.concatenate([[], [1]], 0))
print("jax", np.concatenate([[], [1]], 0))
