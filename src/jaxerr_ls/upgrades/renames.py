"""Which replacements JAX names are drop-in renames (a safe fix) and which change behaviour.

The replacement itself always comes from JAX's own deprecation message (the history); this table
only says, per name, whether swapping the name alone keeps the program's meaning, and why we
believe so. `tests/upgrades/test_renames_jax.py` proves each safe pair under real JAX where a
release has both names (same object, or the same signature).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rename:
    old: str
    new: str
    safe: bool
    why: str  # one clause a user reads: why it is (or is not) a drop-in


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


def rename_for(name: str) -> Rename | None:
    """The rename offered for a removed or deprecated name, or None (explained only)."""
    return _SAFE.get(name) or _UNSAFE.get(name)


def safe_renames() -> dict[str, Rename]:
    return dict(_SAFE)


def unsafe_renames() -> dict[str, Rename]:
    return dict(_UNSAFE)
