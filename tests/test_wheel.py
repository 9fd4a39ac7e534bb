"""The catalog ships inside the wheel: a non-editable install in a fresh venv finds it."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_non_editable_install_finds_the_catalog(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(wheels),
            str(ROOT),
        ],
        check=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("jaxerr_ls-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)],
        check=True,
        timeout=600,
    )
    # Run from elsewhere so nothing can come from the checkout.
    listing = subprocess.run(
        [str(env_dir / "bin" / "jaxerr-ls"), "catalog", "list", "--curated", "--json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        timeout=60,
    )
    shipped = {e["id"] for e in json.loads(listing.stdout)}
    in_repo = {p.stem for p in (ROOT / "catalog" / "curated").glob("*.toml")}
    assert shipped == in_repo
    explained = subprocess.run(
        [
            str(env_dir / "bin" / "jaxerr-ls"),
            "explain",
            str(ROOT / "examples" / "eager_shard_map_ref.txt"),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert json.loads(explained.stdout)["tracebacks"][0]["entry"]["id"] == "eager-shard-map-ref"
    # JupyterLab: the installed wheel registers its jupyter-lsp spec, which starts that venv's
    # python (what jupyter-lsp reads at start-up; tests/editors/test_jupyterlab.py runs it).
    probe = (
        "import json; from importlib.metadata import entry_points; "
        "print(json.dumps([ep.load()(None) for ep in entry_points(group='jupyter_lsp_spec_v1')"
        " if ep.name == 'jaxerr-ls']))"
    )
    specs = subprocess.run(
        [str(python), "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        timeout=60,
    )
    (spec,) = json.loads(specs.stdout)
    assert spec["jaxerr-ls"]["argv"] == [str(python), "-m", "jaxerr_ls"]
