"""`numpy-on-traced`: a NumPy function called on a traced value (`np.sum(x)` in a jitted
function): NumPy converts its argument with `__array__`, which a tracer refuses.

Entry: tracer-array-conversion. Quiet on metadata (`np.shape`, `np.ndim`, `np.dtype`, `np.prod`
of a shape), on calls that take a dtype (`np.issubdtype`, `np.isdtype`, `np.finfo`...), on untraced
values and outside traced functions.
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
_NOT_CONVERTING = METADATA_CALLS | {"isdtype", "common_type"}


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
                arguments = [*node.args, *(k.value for k in node.keywords if k.arg != "dtype")]
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
