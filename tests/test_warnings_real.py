"""JAX's warnings, emitted by real programs under the installed JAX (CPU), explained by the
extracted warning site (issue 18): the program's stderr is what a user pastes."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from jaxerr_ls.catalog import load_catalog
from jaxerr_ls.shells.cli.main import main

pytestmark = pytest.mark.jax

# name -> (program, the category Python prints, JAX's file and function warning it)
PROGRAMS = {
    "donated-buffer-unused": (
        """
        import jax, jax.numpy as jnp
        # The output (a scalar) cannot reuse the donated float32[3] buffer.
        jax.jit(lambda x: x.sum(), donate_argnums=0)(jnp.ones(3)).block_until_ready()
        """,
        "UserWarning",
        ("jax/_src/interpreters/mlir.py", "lower_jaxpr_to_module"),
    ),
    "fork-after-jax": (
        """
        import os
        import jax, jax.numpy as jnp
        jnp.ones(3).block_until_ready()  # JAX's runtime threads are running now
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        """,
        "RuntimeWarning",
        ("jax/_src/xla_bridge.py", "_at_fork"),
    ),
    "one-hot-float-input": (
        """
        import jax, jax.numpy as jnp
        jax.nn.one_hot(jnp.array([1.0, 2.0]), 3)
        """,
        "DeprecationWarning",
        ("jax/_src/nn/functions.py", "one_hot"),
    ),
}


def run_program(tmp_path: Path, text: str) -> str:
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(text), encoding="utf-8")
    return run_file(program)


def run_file(program: Path) -> str:
    """The stderr of a real run of `program` (warnings always shown), which must succeed."""
    done = subprocess.run(
        [sys.executable, "-W", "always", str(program)],
        capture_output=True,
        text=True,
        timeout=300,
        env={"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stderr


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_real_warning_is_explained_by_its_warning_site(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, category, (file, function) = PROGRAMS[name]
    stderr = run_program(tmp_path, text)
    assert f": {category}: " in stderr, stderr[-2000:]  # Python printed the warning
    pasted = tmp_path / "stderr.txt"
    pasted.write_text(stderr, encoding="utf-8")
    assert main(["explain", str(pasted), "--json"]) == 0
    [found] = json.loads(capsys.readouterr().out)["tracebacks"]
    assert found["exception"] == category
    # Python's line after the message (the source line that warned) is not part of it.
    assert not found["message"].splitlines()[-1].startswith("  "), found["message"]
    entry: dict[str, Any] = found["entry"]
    assert entry is not None, stderr
    assert entry["identified_by"] == "message"
    assert not entry["curated"] and entry["score"] >= 90
    indexed = load_catalog().get(entry["id"])
    assert indexed is not None and indexed.exception == category
    assert any(s.file == file and s.function.endswith(function) for s in indexed.raised_at), (
        indexed.raised_at
    )
    # The page says the site warns, not raises.
    assert main(["explain", str(pasted)]) == 0
    human = capsys.readouterr().out
    assert "Warned in JAX at" in human and "Raised" not in human, human
