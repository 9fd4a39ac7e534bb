"""Choosing the shipped index for the installed JAX."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from jaxerr_ls.catalog.versions import installed_jax_version, pick_index, version_key

ROOT = Path(__file__).resolve().parents[1]


def shipped(tmp_path: Path, *names: str) -> Path:
    for name in names:
        (tmp_path / name).write_text("{}", encoding="utf-8")
    return tmp_path


def test_the_installed_version_when_shipped(tmp_path: Path) -> None:
    index = shipped(tmp_path, "jax-0.9.0.json", "jax-0.10.2.json", "jax-0.10.10.json")
    assert pick_index(index, "0.10.2") == index / "jax-0.10.2.json"


def test_else_the_newest_by_version_order(tmp_path: Path) -> None:
    index = shipped(tmp_path, "jax-0.9.0.json", "jax-0.10.2.json", "jax-0.10.10.json")
    assert pick_index(index, "0.11.0") == index / "jax-0.10.10.json"
    assert pick_index(index, None) == index / "jax-0.10.10.json"


def test_release_beats_its_prereleases(tmp_path: Path) -> None:
    index = shipped(tmp_path, "jax-0.10.0rc1.json", "jax-0.10.0.json", "jax-0.10.0.dev1.json")
    assert pick_index(index, None) == index / "jax-0.10.0.json"


def test_nothing_shipped(tmp_path: Path) -> None:
    assert pick_index(tmp_path, "0.10.2") is None
    assert pick_index(tmp_path / "missing", None) is None
    shipped(tmp_path, "notes.json", "jax-.json", "README.md")
    assert pick_index(tmp_path, None) is None


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("0.9.0", "0.10.2"),
        ("0.10.2", "0.10.10"),
        ("0.4.38", "0.5"),
        ("0.10.0rc1", "0.10.0"),
        ("0.10.0.dev20250101", "0.10.0rc1"),
        ("0.10.0", "0.10.0.post1"),
        ("0.10.0.post1", "0.10.1"),
    ],
)
def test_version_order(older: str, newer: str) -> None:
    assert version_key(older) < version_key(newer)


def test_installed_version_from_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metadata, "version", lambda name: "1.2.3")
    assert installed_jax_version() == "1.2.3"

    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert installed_jax_version() is None


def test_installed_version_does_not_import_jax() -> None:
    code = (
        "import sys\n"
        "from jaxerr_ls.catalog.versions import installed_jax_version\n"
        "print(installed_jax_version(), 'jax' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    version, imported = done.stdout.split()
    try:
        expected = metadata.version("jax")
    except metadata.PackageNotFoundError:
        expected = "None"
    assert (version, imported) == (expected, "False")


def test_the_shipped_index_is_found() -> None:
    index_dir = ROOT / "catalog" / "index"
    # The multi-release index serves every release, the installed one or not.
    for installed in ("0.10.2", "0.4.38", None):
        assert pick_index(index_dir, installed) == index_dir / "releases.json.gz"
