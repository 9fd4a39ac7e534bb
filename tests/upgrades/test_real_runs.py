"""Under real JAX: the saved tracebacks are what the programs print, the safe renames make the
old programs run on JAX 0.10.2, the new names run there too, and every safe rename's two names
are one function (or one signature) in a release that has both."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from jaxerr_ls.upgrades.renames import curated_renames
from tests.proof.prove import python_for

pytestmark = pytest.mark.jax

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"
TRACEBACKS = HERE / "tracebacks"
TIMEOUT = 300


def _run(python: str, program: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [python, program.name],
        cwd=program.parent,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=dict(os.environ, JAX_PLATFORMS="cpu"),
    )


def _last_line(text: str) -> str:
    # ImportError names the package's path, which depends on where the venv was made.
    return re.sub(r" \(/[^()]*\)$", "", text.rstrip().splitlines()[-1])


def _jax_version(python: str) -> str:
    done = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('jax'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_saved_tracebacks_are_what_the_programs_print() -> None:
    current = _jax_version(sys.executable)

    def mismatch(saved: Path) -> str | None:
        program, version = saved.stem.split("@")
        python = sys.executable if version == current else python_for(version)
        done = _run(python, PROGRAMS / f"{program}.py")
        expected = _last_line(saved.read_text(encoding="utf-8"))
        if done.returncode != 0 and _last_line(done.stderr) == expected:
            return None
        return f"{saved.name}: exit {done.returncode}, {done.stderr[-300:]}"

    saved = sorted(TRACEBACKS.glob("*@*.txt"))
    assert len(saved) >= 13
    with ThreadPoolExecutor(max_workers=2) as pool:  # two cores: two programs at a time
        problems = [m for m in pool.map(mismatch, saved) if m]
    assert problems == []


def test_safe_renames_make_old_programs_run(tmp_path: Path) -> None:
    names = ["old_tree_structure", "old_tree_unflatten", "old_row_stack", "old_trapz"]
    for name in names:
        shutil.copy(PROGRAMS / f"{name}.py", tmp_path / f"{name}.py")
    version = _jax_version(sys.executable)
    check = subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", "check", "--fix", "--jax", version, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert check.returncode == 0, check.stdout + check.stderr  # nothing left to flag
    for name in names:
        done = _run(sys.executable, tmp_path / f"{name}.py")
        assert done.returncode == 0, f"{name}: {done.stderr}"


@pytest.mark.parametrize("program", sorted(PROGRAMS.glob("new_*.py")), ids=lambda p: p.stem)
def test_new_names_run_on_a_new_jax(program: Path) -> None:
    done = _run(sys.executable, program)
    assert done.returncode == 0, done.stderr


_COMPARE = """
import importlib, inspect, json, sys, warnings
warnings.simplefilter("ignore")

def get(dotted):
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj

def shape(sig):
    return [(p.name, str(p.kind), repr(p.default)) for p in sig.parameters.values()]

out = {}
for old, new in json.loads(sys.argv[1]):
    try:
        a, b = get(old), get(new)
    except AttributeError:
        continue
    if a is b:
        out[old] = "same object"
    else:
        same = shape(inspect.signature(a)) == shape(inspect.signature(b))
        out[old] = "same signature" if same else "different"
print(json.dumps(out))
"""


def test_safe_renames_are_the_same_function_where_both_names_exist() -> None:
    # The curated ones: a derived rename is the same object by JAX's own source (derive.py)
    # in a release read, and most of those names are gone from 0.4.38.
    pairs = [[r.old, r.new] for r in curated_renames().values() if r.safe]
    python = python_for("0.4.38")
    done = subprocess.run(
        [python, "-c", _COMPARE, json.dumps(pairs)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=dict(os.environ, JAX_PLATFORMS="cpu"),
    )
    assert done.returncode == 0, done.stderr
    compared = json.loads(done.stdout)
    # JAX 0.4.38 still has the tree_* names (deprecated) beside jax.tree.*.
    assert {"jax.tree_map", "jax.tree_structure", "jax.tree_unflatten"} <= set(compared)
    assert all(v in ("same object", "same signature") for v in compared.values()), compared
