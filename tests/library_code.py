"""Real JAX library code from the package index, for precision checks (false alarms, stray
lightbulbs): pinned wheels downloaded once with `pip download --no-deps` into the gitignored
`.cache/libraries/` of the checkout, unpacked, and their `.py` files listed.

`library_files(name)` -> the library's Python files; `LIBRARIES` pins the versions. A download that
fails (no network) raises `LibraryUnavailable`; `required_library_files(name)` fails the test then.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "libraries"

# Pinned: the findings (and their hand review) are about these exact files.
LIBRARIES: dict[str, str] = {
    "optax": "0.2.8",
    "equinox": "0.13.8",
    "diffrax": "0.7.2",
    "flax": "0.12.8",
}


class LibraryUnavailable(RuntimeError):
    pass


def _wheel(name: str, version: str) -> Path:
    folder = CACHE / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    found = sorted(folder.glob(f"{name}-{version}-*.whl"))
    if found:
        return found[0]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "-d",
            str(folder),
            f"{name}=={version}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    found = sorted(folder.glob(f"{name}-{version}-*.whl"))
    if done.returncode != 0 or not found:
        raise LibraryUnavailable(f"pip download {name}=={version} failed: {done.stderr[-500:]}")
    return found[0]


def library_root(name: str) -> Path:
    """The unpacked wheel of the pinned version (downloaded on first use)."""
    version = LIBRARIES[name]
    target = CACHE / f"{name}-{version}"
    marker = target / ".unpacked"
    if not marker.exists():
        with zipfile.ZipFile(_wheel(name, version)) as wheel:
            wheel.extractall(target)
        marker.write_text("ok\n")
    return target


def library_files(name: str) -> list[Path]:
    """The library's own .py files (not its dist-info), sorted."""
    root = library_root(name)
    return sorted(p for p in root.rglob("*.py") if ".dist-info" not in str(p))


def required_library_files(name: str) -> list[Path]:
    """`library_files(name)`, or the calling test fails saying why the download failed."""
    try:
        return library_files(name)
    except LibraryUnavailable as exc:
        pytest.fail(f"cannot download {name}: {exc}")
