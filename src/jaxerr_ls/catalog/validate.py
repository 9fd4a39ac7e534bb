"""Cross-entry checks the loader cannot make one file at a time."""

from __future__ import annotations

from jaxerr_ls.catalog.model import Catalog


def validate_catalog(catalog: Catalog, known_fixes: frozenset[str] | None = None) -> list[str]:
    """Loading problems plus dangling `related` ids, unknown fix ids and unqualified API names."""
    problems = list(catalog.problems)
    if known_fixes is None:
        known_fixes = _registered_fixes()
    for entry in catalog.curated:
        where = f"catalog/curated/{entry.id}.toml"
        for other in entry.related:
            if catalog.get(other) is None:
                problems.append(f"{where}: field 'related': no entry '{other}'")
        for fix in entry.fixes:
            if known_fixes and fix not in known_fixes:
                problems.append(f"{where}: field 'fixes': no fix '{fix}'")
        for api in entry.apis:
            if not api.startswith("jax.") and api != "jax":
                problems.append(f"{where}: field 'apis': '{api}' is not a qualified jax name")
        if entry.example is None:
            problems.append(
                f"{where}: field 'example': curated entries need a before/after example"
            )
    return problems


def _registered_fixes() -> frozenset[str]:
    try:
        from jaxerr_ls.fixes import FIXES
    except ImportError:  # the fix registry is optional for catalog checks
        return frozenset()
    return frozenset(FIXES)
