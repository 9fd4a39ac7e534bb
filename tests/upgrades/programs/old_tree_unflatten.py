import jax
import jax.numpy as jnp

leaves, treedef = jax.tree_util.tree_flatten({"w": jnp.ones(3), "b": jnp.zeros(())})
params = jax.tree_unflatten(treedef, [leaf * 2 for leaf in leaves])
print(params["w"])
