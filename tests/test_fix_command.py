"""`jaxerr-ls fix -- CMD`: real JAX programs fixed until they run, and the rules the loop keeps."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.fixes.loop import Files, fix_until_runs

pytestmark = pytest.mark.jax

TWO_SIZES = """\
import jax
import jax.numpy as jnp


@jax.jit
def grid(n, m):
    return jnp.zeros((n, m))


print(grid(16, 8).shape)
"""

SCALE = """\
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, n):
    if n > 0:
        return x * n
    return x


print(scale(jnp.ones(3), 2))
"""


def _fix(root: Path, *options: str, script: str = "prog.py") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", "fix", *options, "--", sys.executable, script],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=root,
        env=env,
    )


def test_fix_marks_static_and_the_program_runs(tmp_path: Path) -> None:
    (tmp_path / "prog.py").write_text(SCALE)
    done = _fix(tmp_path)
    assert done.returncode == 0, done.stderr
    fixed = (tmp_path / "prog.py").read_text()
    assert 'static_argnames=("n",)' in fixed
    assert "-@jax.jit" in done.stdout and "+@partial(jax.jit" in done.stdout  # the diff
    assert "[2. 2. 2.]" in done.stdout  # the program's own output, from the last run


def test_dry_run_prints_the_diff_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "prog.py").write_text(SCALE)
    done = _fix(tmp_path, "--dry-run")
    assert done.returncode == 1
    assert "+@partial(jax.jit" in done.stdout
    assert (tmp_path / "prog.py").read_text() == SCALE


def test_a_file_outside_the_root_is_never_edited(tmp_path: Path) -> None:
    (tmp_path / "prog.py").write_text(SCALE)
    (tmp_path / "elsewhere").mkdir()
    done = _fix(tmp_path, "--root", "elsewhere")
    assert done.returncode == 1
    assert (tmp_path / "prog.py").read_text() == SCALE
    assert "stopped after 0 fix(es)" in done.stderr


def test_max_bounds_the_rounds(tmp_path: Path) -> None:
    two_errors = SCALE + "\nx = jnp.zeros(3)\nx[0] = 1.0\nprint(x)\n"
    (tmp_path / "prog.py").write_text(two_errors)
    done = _fix(tmp_path, "--max", "1")
    assert done.returncode == 1
    assert done.stdout.count("jaxerr-ls fix: ") == 1
    assert "still failing after 1 round(s)" in done.stderr
    assert "x[0] = 1.0" in (tmp_path / "prog.py").read_text()


def test_every_error_in_turn(tmp_path: Path) -> None:
    two_errors = SCALE + "\nx = jnp.zeros(3)\nx[0] = 1.0\nprint(x)\n"
    (tmp_path / "prog.py").write_text(two_errors)
    done = _fix(tmp_path)
    assert done.returncode == 0, done.stderr
    fixed = (tmp_path / "prog.py").read_text()
    assert 'static_argnames=("n",)' in fixed and "x = x.at[0].set(1.0)" in fixed


def test_cmd_that_cannot_start_keeps_its_status(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", "fix", "--", "no-such-program-xyz"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 127
    assert "cannot run no-such-program-xyz" in done.stderr


def test_a_round_that_does_not_help_puts_the_file_back(tmp_path: Path) -> None:
    """The rerun fails with the same error at the same place: the file is restored."""
    path = tmp_path / "prog.py"
    path.write_text(SCALE)
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    real = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, env=env, timeout=300
    )
    assert "TracerBoolConversionError" in real.stderr
    writes: list[str] = []

    def write(target: Path, text: str) -> bool:
        writes.append(text)
        target.write_text(text)
        return True

    catalog = load_catalog()
    out = io.StringIO()
    outcome = fix_until_runs(
        lambda: (1, real.stderr),  # as if the fix changed nothing the program does
        tmp_path,
        Files(lambda p: p.read_text(), write),
        Matcher(catalog),
        catalog,
        out,
    )
    assert outcome.status == 1 and outcome.edits == ()
    assert len(writes) == 2 and writes[0] != SCALE
    assert path.read_text() == SCALE
    assert "put back" in out.getvalue()
