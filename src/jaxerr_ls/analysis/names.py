"""What a dotted expression names, given the file's imports (as the hover resolves them)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from jaxerr_ls.extract.classes import chain_of

# Older or alternative spellings -> the name the rules use.
_ALIASES = {
    "jax.remat": "jax.checkpoint",
    "jax.ad_checkpoint.checkpoint": "jax.checkpoint",
    "jax.ad_checkpoint.remat": "jax.checkpoint",
    "jax.experimental.shard_map.shard_map": "jax.shard_map",
    "jax.experimental.pallas.pallas_call": "jax.experimental.pallas.pallas_call",
    "jax.lax.stop_gradient": "jax.lax.stop_gradient",
    "jax.numpy.numpy": "numpy",
}


def dotted(node: ast.expr) -> str | None:
    """`jnp.linalg.norm` for an attribute chain on a name; None for anything else."""
    chain = chain_of(node)
    return ".".join(chain) if chain is not None else None


def qualify(node: ast.expr, bindings: Mapping[str, str]) -> str | None:
    """`jnp.zeros` -> `jax.numpy.zeros` when `jnp` is imported as jax.numpy; None when unbound."""
    text = dotted(node)
    if text is None:
        return None
    head, _, rest = text.partition(".")
    bound = bindings.get(head)
    if bound is None:
        return None
    full = f"{bound}.{rest}" if rest else bound
    for old, new in _ALIASES.items():
        if full == old or full.startswith(old + "."):
            return new + full[len(old) :]
    return full
