"""`static-literal-args`: a library function jitted whole, called with literals it needs concrete.

`jax.jit(one_hot)(3, 5)` -> `jax.jit(one_hot, static_argnums=(0, 1))(3, 5)` (jax#3656, jax#4412):
the function is not defined in the file, so its parameters cannot be read; what the call shows is
which positional arguments are literals (ints, strings, tuples of them). Those are marked static,
by position, on the `jax.jit(...)` that wraps the function, inline or assigned to a name
(`g = jax.jit(f)` then `g(x, 0)`).

Safe: a literal is hashable and the same on every call, so marking it static changes when JAX
compiles (once per distinct value), never what the call computes; the diagnostic shows the function
cannot trace with it abstract. Not offered for functions the file defines (`mark-static` reads
their parameters) nor when a `static_argnums`/`static_argnames` is already given.
"""

from __future__ import annotations

import ast

from jaxerr_ls.fixes.base import FixContext, ProposedFix
from jaxerr_ls.fixes.common import (
    JIT_NAMES,
    callee_call,
    first_arg_name,
    funcdef_named,
    open_file,
    proposal,
)
from jaxerr_ls.fixes.mark_static import add_keyword
from jaxerr_ls.fixes.syntax import Node


def _hashable_literal(node: Node) -> bool:
    try:
        value = ast.literal_eval(node.code())
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return False
    if isinstance(value, bool | int | str):
        return True
    return isinstance(value, tuple) and all(isinstance(v, bool | int | str) for v in value)


class _StaticLiteralArgs:
    id = "static-literal-args"
    safe = True
    # It reads the calls on the line, the jit they call (through the names said there) and the
    # imports: checked on its component's view (fixes/__init__).
    local = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        for call in file.calls:
            maker = callee_call(file, call)
            if maker is None or file.qualify(maker.callee_dotted()) not in JIT_NAMES:
                continue
            margs = maker.args()
            if not margs or margs[0].keyword is not None or margs[0].star:
                continue
            if any(a.keyword in ("static_argnums", "static_argnames") for a in margs):
                continue
            name = first_arg_name(maker)
            if name is not None and funcdef_named(file, name) is not None:
                continue  # defined here: `mark-static` knows its parameters
            positions: list[int] = []
            for i, arg in enumerate(call.args()):
                if arg.star:
                    break
                if arg.keyword is None and _hashable_literal(arg.value):
                    positions.append(i)
            if not positions:
                continue
            nums = f"({positions[0]},)" if len(positions) == 1 else str(tuple(positions))
            edit = add_keyword(maker, f"static_argnums={nums}")
            title = f"Mark the literal argument{'s' if len(positions) > 1 else ''} static"
            return proposal(
                self.id, f"{title} (static_argnums={nums})", self.safe, [edit], file.imports
            )
        return None


FIX = _StaticLiteralArgs()
