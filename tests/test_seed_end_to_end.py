"""Done-when of the foundation: a traceback produced now by real JAX, explained by the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jaxerr_ls.catalog import load_catalog

pytestmark = pytest.mark.jax

SEEDS = {
    "eager-shard-map-ref": "ref = jax.new_ref(x)",
    "pallas-mosaic-gpu-ref-not-reference": "peer = plgpu.remote_ref(x_ref[...], device_id=1)",
}


@pytest.mark.parametrize("entry_id", sorted(SEEDS))
def test_real_traceback_is_explained_on_the_users_line(entry_id: str, tmp_path: Path) -> None:
    pytest.importorskip("jax")
    entry = load_catalog().get(entry_id)
    assert entry is not None and entry.example is not None
    program = tmp_path / "train.py"
    program.write_text(entry.example.before, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(program)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=dict(os.environ, JAX_PLATFORMS="cpu"),
    )
    assert run.returncode != 0 and "Traceback (most recent call last)" in run.stderr
    line = (
        entry.example.before.splitlines().index(
            next(
                text
                for text in entry.example.before.splitlines()
                if text.strip() == SEEDS[entry_id]
            )
        )
        + 1
    )

    def explain(*flags: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "jaxerr_ls", "explain", "-", "--root", str(tmp_path), *flags],
            input=run.stderr,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    (found,) = json.loads(explain("--json"))["tracebacks"]
    assert found["entry"]["id"] == entry_id
    assert found["location"] == {"path": str(program), "line": line, "in_workspace": True}
    human = explain()
    assert f"[{entry_id}]" in human
    assert f"at {program}:{line}" in human and SEEDS[entry_id] in human
