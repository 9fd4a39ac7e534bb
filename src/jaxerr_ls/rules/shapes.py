"""`shapes`: errors JAX raises from the shapes, dtypes and pytree structure the code states —
matrix products whose inner sizes differ, broadcasting, `reshape` to another size,
`concatenate`/`stack` of mismatched arrays, a scan/fori_loop/while_loop carry that changes type,
cond/switch branches that differ, `vmap` in_axes that do not fit, `grad` of a non-scalar output,
a key array where one key goes.

The values come from `analysis.shapes` (what the code states, carried through assignments,
calls, transforms and loops); what JAX does with them, and the message it prints, from the
oracle (JAX itself, run by the user's interpreter on `ShapeDtypeStruct`s). A message becomes a
finding only when it matches a catalog entry the evaluated code can be blamed for (`_blamed`):
a body's output checks for scan/cond/vmap/grad, sizes alone when a dtype stood in, nothing that
only abstract values raise; anything else JAX said is not the user's error and says nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import lru_cache

from jaxerr_ls.analysis import Model
from jaxerr_ls.analysis.shapes import Event, NoOracle, Oracle, events, oracle_for
from jaxerr_ls.catalog.load import catalog_dir, load_catalog, load_curated
from jaxerr_ls.catalog.match import Matcher
from jaxerr_ls.catalog.model import Catalog
from jaxerr_ls.catalog.templates import Match
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
    "custom-vjp-bwd-output-structure",
)
_NOTE_MARKERS = ("<lambda> at", "worker.py", "true_fun is", "false_fun is")


# What a body JAX calls can be blamed for: its checks of arguments and outputs.
_TEMPLATE_ENTRIES = {
    "scan": ("scan-",),
    "fori": ("scan-",),
    "while": ("scan-", "while-loop-"),
    "cond": ("cond-",),
    "switch": ("cond-", "switch-"),
    "vmap": ("vmap-",),
    "grad": ("grad-", "has-aux-"),
    "custom_vjp": ("custom-vjp-",),
}
# Errors of abstract values only: the oracle sees every array abstract, the program may not
# (`jnp.zeros(jnp.array(3))` runs outside jit): never predicted from an array input.
_ABSTRACT_ONLY = (
    "ConcretizationTypeError",
    "TracerArrayConversionError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "NonConcreteBooleanIndexError",
    "UnexpectedTracerError",
)


@lru_cache(maxsize=1)
def _curated() -> Matcher:
    return Matcher(Catalog.of(load_curated(catalog_dir() / "curated").entries))


@lru_cache(maxsize=1)
def _everything() -> Matcher:
    return Matcher(load_catalog())


def match(event: Event) -> Match | None:
    """The catalog entry of JAX's message: the curated entries first (read in a moment), the
    whole catalog (its generated index, seconds to load) only when none of them matches."""
    found = _curated().match(event.exception, event.message)
    return found or _everything().match(event.exception, event.message)


def _blamed(event: Event, entry: str) -> bool:
    """Whether `entry` is an error of the user's code, not of how the oracle was asked."""
    if "axis-name" in entry:
        return False  # the axes a caller binds (vmap, pmap, shard_map) are not evaluated
    if "worker.py" in event.message.partition("\n")[0]:
        return False  # JAX speaks of the oracle's own call, not of the user's code
    if event.assumed:
        return entry in SHAPE_ENTRIES
    prefixes = _TEMPLATE_ENTRIES.get(event.kind)
    if prefixes is not None:
        return entry.startswith(prefixes)
    if event.arrays:
        text = event.message.lower()
        abstract = "concrete" in text or "tracer" in text or "traced" in text
        return not abstract and event.exception not in _ABSTRACT_ONLY
    return True


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
        _curated()  # read with the first check, not on the first edit that brings a warning
        for event in events(model, self.oracle):
            found = match(event)
            if found is None or not _blamed(event, found.entry.id):
                continue
            fields = {k: str(v) for k, v in found.fields.items() if v is not None}
            yield finding(model, event.node, found.entry.id, message_text(event), self.id, fields)


RULE = ShapesRule()
