"""`shapes`: errors JAX raises from the shapes, dtypes and pytree structure the code states —
matrix products whose inner sizes differ, broadcasting, `reshape` to another size,
`concatenate`/`stack` of mismatched arrays, a scan/fori_loop/while_loop carry that changes type,
cond/switch branches that differ, `vmap` in_axes that do not fit, `grad` of a non-scalar output,
a key array where one key goes.

The values come from `analysis.shapes` (what the code states, carried through assignments,
calls, transforms and loops); what JAX does with them, and the message it prints, from the
oracle (JAX itself, run by the user's interpreter on `ShapeDtypeStruct`s). A message becomes a
finding only when it matches one of the catalog entries below: anything else JAX said (a
stand-in the analysis made that JAX rejects) is not the user's error and says nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import lru_cache

from jaxerr_ls.analysis import Model
from jaxerr_ls.analysis.shapes import Event, NoOracle, Oracle, events, oracle_for
from jaxerr_ls.catalog.load import catalog_dir, load_curated
from jaxerr_ls.catalog.match import Matcher
from jaxerr_ls.catalog.model import Catalog
from jaxerr_ls.rules.base import Finding, finding

log = logging.getLogger(__name__)

# Errors about sizes alone: kept even when a dtype stood in for one the code did not state.
SHAPE_ENTRIES = (
    "dot-contraction-dim-mismatch",
    "broadcast-incompatible-shapes",
    "broadcast-op-incompatible-shapes",
    "reshape-size-mismatch",
    "concatenate-shape-mismatch",
    "concatenate-rank-mismatch",
    "stack-shape-mismatch",
    "matmul-scalar-operand",
    "squeeze-non-unit-axis",
    "axis-out-of-bounds",
    "too-many-indices",
    "transpose-bad-permutation",
    "split-unequal-division",
    "linalg-inv-not-square",
    "select-cases-shape-mismatch",
    "dynamic-slice-size-too-large",
    "vmap-inconsistent-sizes",
    "vmap-axis-rank-too-small",
    "vmap-in-axes-length-mismatch",
    "vmap-in-axes-invalid",
    "vmap-in-axes-not-tree-prefix",
    "vmap-no-mapped-axis",
    "scan-leading-axis-sizes-differ",
    "scan-length-disagrees",
    "scan-no-leading-axis",
    "grad-non-scalar-output",
)
# Errors that need the dtypes the code stated.
TYPE_ENTRIES = (
    "scan-carry-type-mismatch",
    "scan-body-output-not-pair",
    "cond-branch-output-mismatch",
    "lax-dtype-mismatch",
    "grad-integer-input",
    "grad-integer-output",
    "grad-complex-output",
    "grad-tuple-output-without-has-aux",
    "has-aux-output-not-pair",
    "random-batched-keys",
)
_NOTE_MARKERS = ("<lambda> at", "worker.py", "true_fun is", "false_fun is")


@lru_cache(maxsize=1)
def _matcher() -> Matcher:
    loaded = load_curated(catalog_dir() / "curated")
    wanted = set(SHAPE_ENTRIES) | set(TYPE_ENTRIES)
    return Matcher(Catalog.of(e for e in loaded.entries if e.id in wanted))


def message_text(event: Event, limit: int = 6) -> str:
    """JAX's message as the user's release prints it, without what names our stand-ins."""
    lines = [
        line for line in event.message.splitlines() if not any(m in line for m in _NOTE_MARKERS)
    ]
    while lines and not lines[-1].strip():
        lines.pop()
    text = "\n".join(lines[:limit]).strip()
    return f"{event.exception}: {text}"


class ShapesRule:
    id = "shapes"
    entries: tuple[str, ...] = SHAPE_ENTRIES + TYPE_ENTRIES

    def __init__(self, oracle: Oracle | None = None) -> None:
        self._oracle = oracle

    @property
    def oracle(self) -> Oracle:
        return self._oracle if self._oracle is not None else oracle_for(None)

    def with_oracle(self, oracle: Oracle) -> ShapesRule:
        return ShapesRule(oracle)

    def check(self, model: Model) -> Iterable[Finding]:
        if isinstance(self._oracle, NoOracle):
            return
        matcher = _matcher()
        for event in events(model, self.oracle):
            found = matcher.match(event.exception, event.message)
            if found is None or found.entry.id not in self.entries:
                continue
            if event.assumed and found.entry.id not in SHAPE_ENTRIES:
                continue
            fields = {k: str(v) for k, v in found.fields.items() if v is not None}
            yield finding(model, event.node, found.entry.id, message_text(event), self.id, fields)


RULE = ShapesRule()
