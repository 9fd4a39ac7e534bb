"""The VS Code extension's own unit tests (node:test on the TypeScript sources): terminal data to
text, traceback detection. Runs `npm test` in editors/vscode."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from .conftest import REPO

pytestmark = pytest.mark.editor

EXT_DIR = REPO / "editors" / "vscode"


def test_extension_unit_tests() -> None:
    if not shutil.which("npm"):
        pytest.skip("npm not installed")
    if not (EXT_DIR / "node_modules").is_dir():
        pytest.skip(
            "editors/vscode/node_modules missing (run: bash scripts/setup-editors.sh .venv)"
        )
    r = subprocess.run(
        ["npm", "test", "--silent"],
        cwd=EXT_DIR,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )
    assert r.returncode == 0, f"{r.stdout[-4000:]}\n{r.stderr[-2000:]}"
    assert "# fail 0" in r.stdout and "# pass " in r.stdout, r.stdout[-2000:]
