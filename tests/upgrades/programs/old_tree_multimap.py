# jax.tree_multimap (removed in JAX 0.3.16), as gymnax's environment.py line 43 called it:
# https://github.com/RobertTLange/gymnax/issues/27 — the two states are made up here so the line
# runs alone (and the formatter put the call on one line).
import jax
import jax.numpy as jnp

done = jnp.array(True)
state_re = {"pos": jnp.zeros(3), "time": jnp.array(0)}
state_st = {"pos": jnp.ones(3), "time": jnp.array(5)}
state = jax.tree_multimap(lambda x, y: jax.lax.select(done, x, y), state_re, state_st)
print(state["pos"].tolist(), int(state["time"]))
