"""The JAX release of the user's environment, read from its metadata (the interpreter is never run).

Given the project's interpreter (`/proj/.venv/bin/python`, `C:\\env\\python.exe`) or an
environment directory, the installed `jax` is found as `<site-packages>/jax-<v>.dist-info/METADATA`
and its `Version:` header read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from jaxerr_ls.catalog.versions import version_key

SETTING = "interpreter"


def interpreter_setting(options: Any) -> str | None:
    """`{"interpreter": P}` or `{"jaxerr": {"interpreter": P}}` (initialization options or a
    workspace configuration section) -> P."""
    if isinstance(options, Mapping):
        flat = options.get(f"jaxerr.{SETTING}")
        if isinstance(flat, str) and flat.strip():
            return flat.strip()
        inner = options.get("jaxerr")
        if isinstance(inner, Mapping):
            options = inner
        value = options.get(SETTING)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _prefixes(interpreter: Path) -> Iterator[Path]:
    """Environment roots an interpreter may belong to: `<env>/bin/python` -> `<env>`."""
    if interpreter.is_dir():
        yield interpreter
    parent = interpreter.parent
    yield parent.parent if parent.name in ("bin", "Scripts") else parent
    yield parent


def _site_packages(prefix: Path) -> Iterator[Path]:
    yield from sorted(prefix.glob("lib/python3*/site-packages"))
    yield from sorted(prefix.glob("lib64/python3*/site-packages"))
    yield from sorted(prefix.glob("Lib/site-packages"))
    yield prefix / "site-packages"


def _version(metadata: Path) -> str | None:
    try:
        with metadata.open(encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith("Version:"):
                    return line.split(":", 1)[1].strip() or None
                if not line.strip():
                    break  # the headers end at the first blank line
    except OSError:
        return None
    return None


def jax_version_in(interpreter: str | Path) -> str | None:
    """The `jax` version installed for `interpreter` (a python executable or an env directory);
    None when the path is not an environment or has no jax."""
    path = Path(interpreter).expanduser()
    found: list[str] = []
    for prefix in dict.fromkeys(_prefixes(path)):
        for site in _site_packages(prefix):
            for metadata in site.glob("jax-*.dist-info/METADATA"):
                version = _version(metadata)
                if version is not None:
                    found.append(version)
        if found:
            break
    return max(found, key=version_key) if found else None
