"""The tracing model of a Python file: what JAX traces, read from the code alone (stdlib `ast`).

Pure core: no LSP, no JAX import, no I/O. Conservative: when the code does not make it certain
that a value is traced, the model says it is not (rules then say nothing).

Public API (stable; extend, do not rename):

- `analyze(source) -> Model | None` — None when the text does not parse. Cached per text.
- `Model`
    - `.source`, `.tree` (ast.Module), `.lines`, `.bindings` (local name -> qualified, as the
      hover resolves imports: `jnp` -> `jax.numpy`)
    - `.functions: tuple[TracedFunction, ...]` — every traced function, in source order
    - `.function(node)` — the TracedFunction of a def/lambda node, or None
    - `.qualify(expr)` — `jnp.zeros` -> "jax.numpy.zeros"; None when the head is not imported
    - `.origin(expr, fn)` — frozenset of traced parameter names the value derives from (empty:
      traced, origin not a parameter), None when not known to be traced; `.traced(expr, fn)`
    - `.body(fn)` — the nodes of fn's own body (nested functions are TracedFunctions of their own)
    - `.parent(node)`, `.text(node)` (source segment)
- `TracedFunction`: `node`, `name`, `qualname`, `params: tuple[Param]`, `transforms:
  tuple[Transform]` (`api` qualified like "jax.jit", "jax.lax.scan", or "called-from" /
  "closure"), `abstract` (values unknown: jit, vmap, scan...; False under grad alone),
  `is_method`, `pallas_kernel`, `enclosing`, `traced_names` (name -> origins), `call_sites`,
  `.param(name)`, `.transform_apis`.
- `Param`: `name`, `index` (positional), `traced`, `static` (static_argnums/argnames or bound by
  partial), `has_default`, `uses` ⊆ {USE_SHAPE, USE_AXIS, USE_RANGE, USE_BRANCH, USE_INDEX}.
- `CallSite` (a call of the traced function in this file, through its name or a jitted alias):
  `node`, `line`/`column` (0-based), `through`, `arguments: tuple[Argument]`,
  `.argument_for(param)`.
- `Argument`: `kind` ("int" "float" "str" "bool" "none" "list" "tuple" "dict" "set" "array"
  "name" "other"), `text`, `node`, `position`, `keyword`, `param` (the parameter it binds).

Rules (`jaxerr_ls.rules`) read a Model and yield findings; see that package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jaxerr_ls.lazy import names_on_first_use

if TYPE_CHECKING:
    from jaxerr_ls.analysis.build import CALLED_FROM, CLOSURE, Model, analyze
    from jaxerr_ls.analysis.model import (
        USE_AXIS,
        USE_BRANCH,
        USE_INDEX,
        USE_RANGE,
        USE_SHAPE,
        Argument,
        CallSite,
        FunctionNode,
        Param,
        TracedFunction,
        Transform,
    )

# The names load on first use: the server imports `analysis.call_shape` for its hovers and must
# not pay for the tracing model's modules (~0.1 s) on the first hover.
_FROM_BUILD = frozenset({"CALLED_FROM", "CLOSURE", "Model", "analyze"})


__all__ = [
    "CALLED_FROM",
    "CLOSURE",
    "USE_AXIS",
    "USE_BRANCH",
    "USE_INDEX",
    "USE_RANGE",
    "USE_SHAPE",
    "Argument",
    "CallSite",
    "FunctionNode",
    "Model",
    "Param",
    "TracedFunction",
    "Transform",
    "analyze",
]
__getattr__ = names_on_first_use(
    globals(), {name: "build" if name in _FROM_BUILD else "model" for name in __all__}
)
