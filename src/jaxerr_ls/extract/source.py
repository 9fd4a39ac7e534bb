"""A release of JAX (or of a library used with it) read as text from a source tree, installed
package or wheel (never imported)."""

from __future__ import annotations

import ast
import re
import tarfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import MappingProxyType

# `_version = "0.4.26"` since 0.2.x's refactor; `__version__ = "0.1.55"` before it.
_VERSION = re.compile(
    r"""^_{1,2}version_{0,2}\s*(?::\s*str\s*)?=\s*["']([^"']+)["']""", re.MULTILINE
)
# A library's own version module (`__version__ = "0.12.8"`), when no wheel metadata says it.
_DUNDER_VERSION = re.compile(
    r"""^__version__\s*(?::\s*str\s*)?=\s*["']([^"']+)["']""", re.MULTILINE
)
_METADATA_VERSION = re.compile(r"^Version:\s*(\S+)\s*$", re.MULTILINE)


class SourceError(ValueError):
    """The path is not a source tree, package directory or wheel of the package."""


@dataclass(frozen=True)
class Source:
    """Every `.py` file of the package, keyed by its path relative to site-packages."""

    version: str
    label: str  # what the index names as its source, e.g. "jax-0.10.2-py3-none-any.whl"
    files: Mapping[str, str]
    package: str = "jax"  # dotted import name: "jax", "flax", "orbax.checkpoint"


def read_source(path: Path, package: str = "jax") -> Source:
    """The package under `path`: a wheel, a source distribution (`jax-0.1.77.tar.gz`, the only
    form of JAX releases before 0.4.1), the package directory or a checkout holding it.
    `package` is its dotted import name (`orbax.checkpoint` lives in `orbax/checkpoint/`)."""
    folder = package.replace(".", "/")
    if path.is_file():
        if path.name.endswith((".tar.gz", ".tgz")) and tarfile.is_tarfile(path):
            return _from_sdist(path, package)
        if not zipfile.is_zipfile(path):
            raise SourceError(f"{path}: not a wheel (zip) file or source distribution (.tar.gz)")
        return _from_wheel(path, package)
    for candidate in (path, path / folder):
        if (candidate / "__init__.py").is_file() and (
            package != "jax" or (candidate / "version.py").is_file()
        ):
            return _from_directory(candidate, package)
    expected = f"{folder}/version.py" if package == "jax" else f"{folder}/__init__.py"
    raise SourceError(f"{path}: no {package} package ({expected}) found there")


def _from_directory(directory: Path, package: str) -> Source:
    files: dict[str, str] = {}
    for file in sorted(directory.rglob("*.py")):
        relative = PurePosixPath(*package.split("."), *file.relative_to(directory).parts)
        files[str(relative)] = file.read_text(encoding="utf-8", errors="replace")
    return _source(files, None, package, "")


def _from_wheel(wheel: Path, package: str) -> Source:
    files: dict[str, str] = {}
    metadata = ""
    prefix = package.replace(".", "/") + "/"
    with zipfile.ZipFile(wheel) as archive:
        for name in sorted(archive.namelist()):
            if name.startswith(prefix) and name.endswith(".py"):
                files[name] = archive.read(name).decode("utf-8", errors="replace")
            elif name.endswith(".dist-info/METADATA") and name.count("/") == 1:
                metadata = archive.read(name).decode("utf-8", errors="replace")
    return _source(files, wheel.name, package, metadata)


def _from_sdist(sdist: Path, package: str) -> Source:
    """`jax-0.1.77/jax/...` -> `jax/...`; its `PKG-INFO` is the metadata (JAX 0.1 had no
    `jax/version.py`: its version is PKG-INFO's)."""
    files: dict[str, str] = {}
    pkg_info = ""
    prefix = package.replace(".", "/") + "/"
    with tarfile.open(sdist, "r:gz") as archive:
        for member in archive.getmembers():
            parts = PurePosixPath(member.name).parts
            if not member.isfile() or len(parts) < 2:
                continue
            inner = "/".join(parts[1:])
            if inner == "PKG-INFO":
                pkg_info = _read_member(archive, member)
            elif inner.startswith(prefix) and inner.endswith(".py"):
                files[inner] = _read_member(archive, member)
    if package == "jax" and "jax/version.py" not in files:
        found = _METADATA_VERSION.search(pkg_info)
        if found is None:
            raise SourceError(f"{sdist.name}: neither jax/version.py nor a PKG-INFO version")
        files["jax/version.py"] = f'_version = "{found.group(1)}"\n'
    return _source(dict(sorted(files.items())), sdist.name, package, pkg_info)


def _read_member(archive: tarfile.TarFile, member: tarfile.TarInfo) -> str:
    handle = archive.extractfile(member)
    return handle.read().decode("utf-8", errors="replace") if handle is not None else ""


def _source(files: dict[str, str], label: str | None, package: str, metadata: str) -> Source:
    """`label` None: a directory, named by version so the output does not depend on the path.
    JAX's version is its `jax/version.py`; a library's is its wheel's metadata, else the
    `__version__` its `version.py` or `__init__.py` states."""
    where = label or "source tree"
    folder = package.replace(".", "/")
    if package == "jax":
        version_text = files.get("jax/version.py")
        if version_text is None:
            raise SourceError(f"{where}: jax/version.py is missing")
        found = _VERSION.search(version_text)
        if found is None:
            raise SourceError(f"{where}: no _version = '...' in jax/version.py")
    else:
        if not files:
            raise SourceError(f"{where}: no {folder}/*.py files")
        found = _METADATA_VERSION.search(metadata)
        for name in ("version.py", "__init__.py"):
            found = found or _DUNDER_VERSION.search(files.get(f"{folder}/{name}", ""))
        if found is None:
            raise SourceError(f"{where}: no version (wheel metadata or __version__) for {package}")
    version = found.group(1)
    name = label or f"{package.split('.')[0]}-{version} source tree"
    return Source(version=version, label=name, files=MappingProxyType(files), package=package)


def module_name(relative: str) -> str:
    """`jax/_src/numpy/__init__.py` -> `jax._src.numpy`; `jax/lax/linalg.py` -> `jax.lax.linalg`."""
    parts = list(PurePosixPath(relative).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def absolute_module(importer: str, is_package: bool, module: str | None, level: int) -> str:
    """The module `from <level dots><module> import ...` reads in module `importer` (a package
    when `is_package`: its own dots start from itself)."""
    if not level:
        return module or ""
    parts = importer.split(".") if is_package else importer.split(".")[:-1]
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)


def parse_all(source: Source) -> tuple[dict[str, ast.Module], dict[str, str]]:
    """Parsed modules by file, and the files that do not parse (with the reason)."""
    trees: dict[str, ast.Module] = {}
    failed: dict[str, str] = {}
    for relative, text in source.files.items():
        try:
            trees[relative] = ast.parse(text, filename=relative)
        except SyntaxError as exc:
            failed[relative] = f"syntax error: {exc.msg} (line {exc.lineno})"
    return trees, failed
