import jax
import jax.numpy as jnp

params = {"w": jnp.ones(3), "b": jnp.zeros(())}
treedef = jax.tree_structure(params)
print(treedef.num_leaves)
