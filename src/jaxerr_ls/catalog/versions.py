"""Which shipped index to use for the installed JAX (placeholder until the extractor lands)."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path


def installed_jax_version() -> str | None:
    try:
        return metadata.version("jax")
    except metadata.PackageNotFoundError:
        return None


def pick_index(index_dir: Path, installed: str | None) -> Path | None:
    shipped = sorted(index_dir.glob("jax-*.json"))
    if installed is not None and (index_dir / f"jax-{installed}.json").is_file():
        return index_dir / f"jax-{installed}.json"
    return shipped[-1] if shipped else None
