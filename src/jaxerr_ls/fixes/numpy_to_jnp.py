"""`numpy-to-jnp`: `np.sin(x)` on traced values -> `jnp.sin(x)`.

Safe: NumPy cannot take a tracer (the call raises); the jax.numpy function of the same name computes
the same thing on JAX arrays. Offered only for functions jax.numpy really has (read from JAX's
source, see `jnp_api`), and never for calls using `out=` (JAX has no in-place output).
With a diagnostic every such call on the line is rewritten; at a cursor, the call under it.
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import jnp_file, proposal, replace
from jaxerr_ls.fixes.jnp_api import jnp_names

_SUBMODULES = ("linalg", "fft")


def jnp_path(qualified: str | None) -> str | None:
    """`numpy.linalg.norm` -> `linalg.norm` when jax.numpy has it, else None."""
    if qualified is None or not qualified.startswith("numpy."):
        return None
    rest = qualified[len("numpy.") :]
    parts = rest.split(".")
    if len(parts) == 1 and parts[0] in jnp_names(""):
        return rest
    if len(parts) == 2 and parts[0] in _SUBMODULES and parts[1] in jnp_names(parts[0]):
        return rest
    return None


class _NumpyToJnp:
    id = "numpy-to-jnp"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = jnp_file(ctx)
        if file is None:
            return None
        edits: list[TextEdit] = []
        for call in file.calls:
            path = jnp_path(file.qualify(call.callee_dotted()))
            if path is None or any(a.keyword == "out" for a in call.args()):
                continue
            parts = call.callee_parts()
            if not file.cursor_in(parts[0].start, call.end):
                continue
            edits.append(replace(parts[0].start, parts[-1].end, f"{file.jnp.text}.{path}"))
        return proposal(
            self.id, "Use jax.numpy instead of numpy", self.safe, edits, file.imports, file.jnp
        )


FIX = _NumpyToJnp()
