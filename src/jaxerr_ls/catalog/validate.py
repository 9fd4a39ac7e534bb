"""Cross-entry checks the loader cannot make one file at a time."""

from __future__ import annotations

from jaxerr_ls.catalog.model import LIBRARIES, Catalog


def validate_catalog(catalog: Catalog, known_fixes: frozenset[str] | None = None) -> list[str]:
    """Loading problems plus dangling `related` ids, unknown fix ids and unqualified API names.

    The fix ids come from the caller (the fix registry sits above the catalog); None skips
    that check."""
    problems = list(catalog.problems)
    for entry in catalog.curated:
        where = f"catalog/curated/{entry.id}.toml"
        for other in entry.related:
            if catalog.get(other) is None:
                problems.append(f"{where}: field 'related': no entry '{other}'")
        for fix in entry.fixes:
            if known_fixes and fix not in known_fixes:
                problems.append(f"{where}: field 'fixes': no fix '{fix}'")
        # A library's entry names its own APIs (`flax.linen.Module.apply`) and JAX's.
        roots = {"jax", entry.library} if entry.library in LIBRARIES else {"jax"}
        for api in entry.apis:
            if api.split(".", 1)[0] not in roots:
                problems.append(
                    f"{where}: field 'apis': '{api}' is not a qualified"
                    f" {' or '.join(sorted(roots))} name"
                )
        if entry.example is None and not entry.proof_skip:
            problems.append(
                f"{where}: field 'example': curated entries need a before/after example "
                "(or 'proof_skip' saying why none can run on a CPU)"
            )
    return problems
