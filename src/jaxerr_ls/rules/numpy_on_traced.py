"""`numpy-on-traced`: a NumPy function called on a traced value (`np.exp(x)` in a jitted
function): NumPy converts its argument with `__array__`, which a tracer refuses.

Entry: tracer-array-conversion. Quiet on metadata (`np.shape`, `np.ndim`, `np.dtype`), on calls
that take a dtype (`np.issubdtype`, `np.isdtype`, `np.finfo`...), on the functions that call the
argument's own method (`np.sum(x)` runs `x.sum()`), on untraced values and outside traced
functions.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model
from jaxerr_ls.analysis.values import METADATA_CALLS
from jaxerr_ls.rules.base import Finding, because, finding, origin_fields

ENTRY = "tracer-array-conversion"
# NumPy calls that read a tracer's dtype instead of converting it (run under JAX 0.10.2 and
# NumPy 2.4, tests/rules/test_numpy_dtype_calls.py): the metadata calls, and `np.common_type`.
# `np.isdtype(x, ...)` is here too: NumPy refuses any JAX array there with its own TypeError
# ("dtype argument must be a NumPy dtype"), traced or not; no JAX error, no catalog entry.
# NumPy functions that hand a non-NumPy argument to its own method (`np.sum(x)` is `x.sum()`,
# `np.reshape(x, s)` is `x.reshape(s)`) or only index and transpose it: they run on a tracer and
# return one (same test file). `np.array_equal` converts, but swallows the error and says False.
_DISPATCHING = frozenset(
    {
        *("sum", "mean", "max", "min", "amax", "amin", "prod", "any", "all", "std", "var"),
        *("argmax", "argmin", "cumsum", "cumprod", "round", "around", "repeat"),
        *("reshape", "transpose", "squeeze", "swapaxes", "moveaxis", "flip", "split"),
        *("real", "imag", "iscomplexobj", "isrealobj", "isscalar", "array_equal"),
    }
)
_NOT_CONVERTING = METADATA_CALLS | _DISPATCHING | {"isdtype", "common_type"}


class _NumpyOnTraced:
    id = "numpy-on-traced"
    entries: tuple[str, ...] = (ENTRY,)

    def check(self, model: Model) -> Iterable[Finding]:
        for function in model.functions:
            if function.pallas_kernel:
                continue
            values = model.values(function)
            for node in model.body(function):
                if not isinstance(node, ast.Call):
                    continue
                qualified = model.qualify(node.func) or ""
                if not qualified.startswith("numpy.") or qualified.startswith("numpy.random."):
                    continue
                if qualified.rsplit(".", 1)[-1] in _NOT_CONVERTING or qualified.count(".") > 2:
                    continue
                given = [*node.args, *(k.value for k in node.keywords if k.arg != "dtype")]
                # `np.concatenate([x, y])`: NumPy converts each array of a list or tuple.
                arguments = [
                    part
                    for arg in given
                    for part in (arg.elts if isinstance(arg, ast.List | ast.Tuple) else [arg])
                ]
                for arg in arguments:
                    origin = values.origin(arg)
                    if origin is None:
                        continue
                    message = (
                        f"TracerArrayConversionError: `{model.text(node.func)}` converts "
                        f"`{model.text(arg)}` to a NumPy array, but "
                        f"{because(model, function, origin)}."
                    )
                    yield finding(model, node, ENTRY, message, self.id, origin_fields(origin))
                    break


RULE = _NumpyOnTraced()
