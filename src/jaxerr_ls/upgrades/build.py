"""Build the API history from JAX wheels: every public module and name, the releases that have
it, and JAX's own deprecation messages. Pure: wheel bytes in, a JSON-ready dict out.

Stored compactly as release ranges ("0.4.26-0.5.3", "0.6.0-" = still there), a name's range left
out ("") when it equals its module's, "-" when no catalogued release has it. Wheels older than the
catalogued window ("earlier") lend only their deprecation messages, for names already gone from
its first release (JAX's table said what replaced them before it dropped them).
"""

from __future__ import annotations

import re
import tarfile
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.extract.source import absolute_module
from jaxerr_ls.upgrades.scan import JAX_PACKAGES, ModuleScan, scan_module

FORMAT = 1
NEVER = "-"
_WHEEL = re.compile(r"^jax-(?P<version>\d[^-]*)(?:-py3-none-any\.whl|\.tar\.gz)$")
# Not API: kernels shipped as examples, tests, tools and jaxlib's MLIR bindings (names unknowable).
_SKIP_NAMES = (
    "jax.experimental.pallas.ops",
    "jax.extend.mlir",
    "jax.tools",
    "jax.experimental.jax2tf.",
)
# "Use jax.tree.map", "use `jax.jit`", one JAX message's "Used jax.shard_map instead", and the
# moved modules' "import jax.example_libraries.stax instead" (0.2.25-0.3.15).
_REPLACEMENT = re.compile(
    r"\b(?:[Uu]sed?|import)\s+`?(?P<name>(?:jax|jnp|lax|pltpu|plgpu|pl)\.[A-Za-z_][\w.]*[A-Za-z_0-9])"
)


_SHORT = (
    ("jnp.", "jax.numpy."),
    ("lax.", "jax.lax."),
    ("pltpu.", "jax.experimental.pallas.tpu."),
    ("plgpu.", "jax.experimental.pallas.mosaic_gpu."),
    ("pl.", "jax.experimental.pallas."),
)


def wheel_version(path: Path) -> str | None:
    found = _WHEEL.match(path.name)
    return found.group("version") if found else None


def module_name(relative: str, root: str = "jax") -> str | None:
    """`jax/numpy/__init__.py` -> `jax.numpy`; None for private modules and non-Python files."""
    if not relative.endswith(".py") or not relative.startswith(root + "/"):
        return None
    parts = relative[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if any(part.startswith("_") for part in parts) or "tests" in parts:
        return None
    return ".".join(parts)


def _python_files(path: Path, root: str = "jax") -> dict[str, str]:
    """`jax/...py` -> text, from a wheel or a source distribution (`jax-0.1.77/jax/...`: the
    only form of releases before 0.4.1); `root`: a library's top package instead."""
    files: dict[str, str] = {}
    if path.name.endswith(".tar.gz"):
        with tarfile.open(path, "r:gz") as archive:
            for member in archive.getmembers():
                inner = "/".join(member.name.split("/")[1:])
                handle = archive.extractfile(member) if member.isfile() else None
                if handle is not None and inner.startswith(root + "/") and inner.endswith(".py"):
                    files[inner] = handle.read().decode("utf-8", errors="replace")
        return files
    with zipfile.ZipFile(path) as wheel:
        for relative in wheel.namelist():
            if relative.startswith(root + "/") and relative.endswith(".py"):
                files[relative] = wheel.read(relative).decode("utf-8", errors="replace")
    return files


def scan_wheel(path: Path, root: str = "jax") -> dict[str, ModuleScan]:
    """Module name -> scan, for every public module in one wheel or source distribution (of
    JAX, or of the library whose top package is `root`: its names re-exported from JAX count)."""
    scans: dict[str, ModuleScan] = {}
    packages: dict[str, bool] = {}  # module -> it is a package (`__init__.py`)
    own = JAX_PACKAGES if root == "jax" else (root, *JAX_PACKAGES)
    for relative, text in sorted(_python_files(path, root).items()):
        name = module_name(relative, root)
        if name is None:
            continue
        if name.startswith(_SKIP_NAMES):
            scans[name] = ModuleScan(open=True)
            continue
        scans[name] = scan_module(text, own)
        packages[name] = relative.endswith("/__init__.py")
    _resolve_stars(scans, packages)
    return scans


def _resolve_stars(scans: dict[str, ModuleScan], packages: dict[str, bool]) -> None:
    """Each star import of a module the release holds brings that module's public names (its
    own star imports first); one of a module not read (a private one) leaves the names unknown:
    the module is open, as for another package's star import."""
    done: set[str] = set()

    def resolve(name: str, seen: frozenset[str]) -> None:
        scan = scans[name]
        if name in done or name in seen:
            return
        for module, level in scan.stars:
            target = absolute_module(name, packages.get(name, False), module, level)
            if target in scans:
                resolve(target, seen | {name})
                scan.names |= scans[target].names
                scan.open = scan.open or scans[target].open
            else:
                scan.open = True  # a private module's names: not read, so not known
        done.add(name)

    for name in list(scans):
        resolve(name, frozenset())


def replacement_in(message: str) -> str:
    """The name JAX's message tells users to use instead ("" when it names none)."""
    found = _REPLACEMENT.search(message)
    if found is None:
        return ""
    name = found.group("name")
    for short, full in _SHORT:
        if name.startswith(short):
            name = full + name[len(short) :]
    return name


def ranges(present: Iterable[bool], releases: list[str]) -> str:
    """Release ranges where `present` holds: "0.4.26-0.5.3,0.6.1-" (open end = newest)."""
    out: list[str] = []
    start: int | None = None
    flags = list(present)
    for index, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            end = "" if index == len(releases) else releases[index - 1]
            out.append(f"{releases[start]}-{end}")
            start = None
    return ",".join(out)


@dataclass(frozen=True)
class _Status:
    available: bool  # the name works (perhaps with a DeprecationWarning)
    deprecated: bool  # in JAX's table with a value: works and warns
    message: str  # JAX's table message, "" when not in the table


def _status(scan: ModuleScan | None, name: str) -> _Status:
    if scan is None:
        return _Status(False, False, "")
    entry = scan.deprecations.get(name)
    if entry is None:
        return _Status(name in scan.names, False, "")
    return _Status(not entry.removed, not entry.removed, entry.message)


def build_history(
    scans_by_release: Mapping[str, dict[str, ModuleScan]],
    earlier: Mapping[str, dict[str, ModuleScan]] | None = None,
) -> dict[str, object]:
    releases = sorted(scans_by_release, key=version_key)
    modules: dict[str, dict[str, object]] = {}
    deprecations: dict[str, dict[str, str]] = {}
    module_names = sorted({m for scans in scans_by_release.values() for m in scans})
    for module in module_names:
        per_release = [scans_by_release[r].get(module) for r in releases]
        module_range = ranges([scan is not None for scan in per_release], releases)
        record: dict[str, object] = {"r": module_range}
        warned = [scan is not None and bool(scan.warning) for scan in per_release]
        if any(warned):
            last = max(i for i, flag in enumerate(warned) if flag)
            message = per_release[last].warning  # type: ignore[union-attr]
            deprecations[module] = {
                "import": "warns",  # on `import`, not on attribute access
                "message": message,
                "deprecated": releases[warned.index(True)],
                **({"replacement": r} if (r := replacement_in(message)) else {}),
            }
        if any(scan is not None and scan.open for scan in per_release):
            record["open"] = True
            modules[module] = record
            continue
        names = sorted(
            {n for scan in per_release if scan for n in (*scan.names, *scan.deprecations)}
        )
        name_ranges: dict[str, str] = {}
        for name in names:
            statuses = [_status(scan, name) for scan in per_release]
            name_range = ranges([s.available for s in statuses], releases)
            if not name_range:
                name_range = NEVER
            name_ranges[name] = "" if name_range == module_range else name_range
            deprecation = _deprecation(statuses, releases)
            if deprecation:
                deprecations[f"{module}.{name}"] = deprecation
        record["names"] = name_ranges
        modules[module] = record
    _add_earlier(modules, deprecations, earlier or {}, scans_by_release[releases[0]])
    return {
        "format": FORMAT,
        "releases": releases,
        "modules": modules,
        "deprecations": deprecations,
    }


def _add_earlier(
    modules: dict[str, dict[str, object]],
    deprecations: dict[str, dict[str, str]],
    earlier: Mapping[str, dict[str, ModuleScan]],
    first: dict[str, ModuleScan],
) -> None:
    """Names an older release's table deprecated and the first catalogued release lacks."""
    for version in sorted(earlier, key=version_key, reverse=True):
        for module, scan in earlier[version].items():
            record = modules.get(module)
            names = record.get("names") if record else None
            if not isinstance(names, dict) or module not in first:
                continue
            for name, entry in scan.deprecations.items():
                key = f"{module}.{name}"
                if name in first[module].names or names.get(name, NEVER) != NEVER:
                    continue
                names[name] = NEVER
                found = deprecations.setdefault(key, {"message": entry.message})
                if "replacement" not in found and replacement_in(entry.message):
                    found["replacement"] = replacement_in(entry.message)
                if not entry.removed:
                    found["deprecated"] = version  # oldest wheel read that warns
                found.setdefault("earlier", version)


def _deprecation(statuses: list[_Status], releases: list[str]) -> dict[str, str]:
    with_message = [i for i, s in enumerate(statuses) if s.message]
    if not with_message:
        return {}
    last = with_message[-1]
    record = {"message": statuses[last].message}
    replacement = replacement_in(statuses[last].message)
    if replacement:
        record["replacement"] = replacement
    warned = [i for i, s in enumerate(statuses) if s.deprecated]
    if warned:
        record["deprecated"] = releases[warned[0]]
    # The releases that still answer the name with JAX's message (after that: a bare error).
    stubs = [i for i in with_message if not statuses[i].available]
    if stubs:
        record["stub"] = ranges([i in stubs for i in range(len(releases))], releases)
    return record


def _scan_all(paths: Iterable[Path]) -> dict[str, dict[str, ModuleScan]]:
    scans: dict[str, dict[str, ModuleScan]] = {}
    for path in paths:
        version = wheel_version(path)
        if version is not None:
            scans[version] = scan_wheel(path)
    return scans


def build_from_wheels(paths: Iterable[Path], earlier: Iterable[Path] = ()) -> dict[str, object]:
    return build_history(_scan_all(paths), _scan_all(earlier))
