"""Which replacements of removed names are drop-in renames (a safe fix) and which change
behaviour.

Most come from data (`catalog/renames.json`, built by `upgrades/derive.py` from JAX's sources
0.1-0.10.2: aliases of a public name before their removal, replacements JAX's deprecation
messages name, the `jax.ops` index helpers that became `.at[i]` methods). The table below is a
curator's word where the data cannot tell: a replacement that is a drop-in though not the same
object (same signature), or one that changes behaviour, with the reason; it wins over the data.
`tests/upgrades/test_real_runs.py` proves each safe pair under real JAX.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Rename:
    old: str
    new: str
    safe: bool
    why: str  # one clause a user reads: why it is (or is not) a drop-in
    # A call-shape rewrite: `old(x, i, y)` -> `x.at[i].<method>(y)` ("" = a plain rename).
    method: str = ""


def _tree(name: str) -> tuple[str, Rename]:
    return (
        f"jax.tree_{name}",
        Rename(f"jax.tree_{name}", f"jax.tree.{name}", True, "same function and signature"),
    )


_SAFE: dict[str, Rename] = dict(
    [
        _tree("map"),
        _tree("flatten"),
        _tree("leaves"),
        _tree("structure"),
        _tree("transpose"),
        _tree("unflatten"),
        (
            "jax.treedef_is_leaf",
            Rename("jax.treedef_is_leaf", "jax.tree_util.treedef_is_leaf", True, "same function"),
        ),
        (
            # JAX 0.4.20's table mapped row_stack to vstack itself.
            "jax.numpy.row_stack",
            Rename("jax.numpy.row_stack", "jax.numpy.vstack", True, "row_stack was vstack"),
        ),
        (
            # trapz(y, x=None, dx=1.0, axis=-1) in 0.4.20; trapezoid has the same parameters.
            "jax.numpy.trapz",
            Rename("jax.numpy.trapz", "jax.numpy.trapezoid", True, "same parameters and rule"),
        ),
        (
            "jax.core.ConcretizationTypeError",
            Rename(
                "jax.core.ConcretizationTypeError",
                "jax.errors.ConcretizationTypeError",
                True,
                "the same class",
            ),
        ),
    ]
)

_UNSAFE: dict[str, Rename] = {
    "jax.numpy.in1d": Rename(
        "jax.numpy.in1d",
        "jax.numpy.isin",
        False,
        "in1d flattened its result to 1-D; isin keeps the shape of its first argument",
    ),
    "jax.numpy.fix": Rename(
        "jax.numpy.fix", "jax.numpy.trunc", False, "trunc has no `out` parameter (fix had one)"
    ),
    "jax.random.KeyArray": Rename(
        "jax.random.KeyArray",
        "jax.Array",
        False,
        "right in annotations; an isinstance test needs jax.dtypes.issubdtype(x.dtype, "
        "jax.dtypes.prng_key) instead",
    ),
    "jax.random.PRNGKeyArray": Rename(
        "jax.random.PRNGKeyArray",
        "jax.Array",
        False,
        "right in annotations; an isinstance test needs jax.dtypes.issubdtype(x.dtype, "
        "jax.dtypes.prng_key) instead",
    ),
}


RENAMES_FILE = "renames.json"


@lru_cache(maxsize=1)
def derived_renames() -> dict[str, Rename]:
    """`catalog/renames.json` (read on first use; empty when missing or bad)."""
    from jaxerr_ls.catalog.load import catalog_dir

    try:
        data = json.loads((catalog_dir() / RENAMES_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    raw = data.get("renames", {}) if isinstance(data, dict) else {}
    found: dict[str, Rename] = {}
    for old, record in raw.items() if isinstance(raw, dict) else ():
        if not isinstance(record, dict) or not isinstance(record.get("new"), str):
            continue
        found[old] = Rename(
            old,
            record["new"],
            record.get("safe") is True,
            str(record.get("why", "")),
            str(record.get("method", "")),
        )
    return found


def rename_for(name: str) -> Rename | None:
    """The rename offered for a removed or deprecated name, or None (explained only)."""
    return _SAFE.get(name) or _UNSAFE.get(name) or derived_renames().get(name)


def safe_renames() -> dict[str, Rename]:
    """Every safe rename (the curated ones and the derived ones), plain renames only."""
    found = {k: r for k, r in derived_renames().items() if r.safe and not r.method}
    found = {k: r for k, r in found.items() if k not in _UNSAFE}
    return {**found, **_SAFE}


def unsafe_renames() -> dict[str, Rename]:
    found = {k: r for k, r in derived_renames().items() if not r.safe and k not in _SAFE}
    return {**found, **_UNSAFE}


def curated_renames() -> dict[str, Rename]:
    """The hand-written judgements only (each proved under real JAX by the tests)."""
    return {**_SAFE, **_UNSAFE}


def method_renames() -> dict[str, Rename]:
    return {k: r for k, r in derived_renames().items() if r.method}
