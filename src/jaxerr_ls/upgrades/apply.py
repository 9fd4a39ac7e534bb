"""The shell of `jaxerr-ls check --jax/--fix`: which release to check, and renames written to
files (only when the result parses)."""

from __future__ import annotations

import ast
from pathlib import Path

from jaxerr_ls.catalog.versions import installed_jax_version, version_key
from jaxerr_ls.edits.text import apply_edits
from jaxerr_ls.upgrades.history import load_history
from jaxerr_ls.upgrades.rewrite import rename_edits


def resolve_release(given: str | None) -> tuple[str | None, str]:
    """(release to check against, problem): the given release when catalogued (a release
    between two catalogued ones stands for the older), else the installed JAX's, else None
    (the rule then uses the newest catalogued)."""
    history = load_history()
    if given is None:
        return installed_jax_version(), ""
    if not any(part.isdigit() for part in given.split(".")) or given[0] not in "0123456789":
        return None, f"--jax {given}: not a version such as 0.4.38"
    if history.releases and version_key(given) < version_key(history.oldest):
        return None, (
            f"--jax {given}: older than every catalogued release "
            f"({history.oldest}–{history.newest})"
        )
    return given, ""


def fix_file(path: Path, release: str | None) -> str:
    """Apply the safe renames to one file; what was done, "" when nothing."""
    try:
        source = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    found = rename_edits(source, load_history(), release)
    if not found:
        return ""
    fixed = apply_edits(source, [r.edit for r in found])
    try:
        ast.parse(fixed)
    except (SyntaxError, ValueError):
        return "renames not applied: the result would not parse"
    path.write_text(fixed, encoding="utf-8")
    names = ", ".join(sorted({f"{r.rename.old} -> {r.rename.new}" for r in found}))
    return f"renamed {len(found)} use(s): {names}"
