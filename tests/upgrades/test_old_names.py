"""Names removed before 0.4.26, from data (`catalog/renames.json`, derived from the sources of
JAX 0.1-0.10.2): `check` flags them and says what replaces them, `check --fix` rewrites the safe
ones (a method call for the `jax.ops` index helpers, imports of moved modules) and the programs
then run on JAX 0.10.2 and print what the old programs meant."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import explain_text
from jaxerr_ls.upgrades.history import load_history
from jaxerr_ls.upgrades.renames import derived_renames, rename_for

PROGRAMS = Path(__file__).parent / "programs"
# Program -> (what `check` must name, what the fixed program prints on JAX 0.10.2).
OLD = {
    "old_tree_multimap": ("jax.tree_util.tree_map", "[0.0, 0.0, 0.0] 0"),
    "old_index_update": ("x.at[idx].set(y)", "[1.0, 2.0, 9.0, 0.0]"),
    "old_numpy_aliases": ("jax.numpy.prod", "24.0 True True\n[1.0, 2.0, 6.0, 24.0]"),
    "old_moved_modules": ("jax.example_libraries.stax", "(2,)"),
}


def _check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", "check", "--jax", "0.10.2", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("program", sorted(OLD))
def test_check_flags_the_old_name_and_names_its_replacement(program: str) -> None:
    done = _check(str(PROGRAMS / f"{program}.py"))
    assert done.returncode == 1
    assert OLD[program][0] in done.stdout


@pytest.mark.jax
def test_check_fix_makes_the_old_programs_run_on_jax_0_10_2(tmp_path: Path) -> None:
    for program in OLD:
        shutil.copy(PROGRAMS / f"{program}.py", tmp_path / f"{program}.py")
    fixed = _check("--fix", str(tmp_path))
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr  # nothing left to flag
    for program, (_, printed) in OLD.items():
        done = subprocess.run(
            [sys.executable, f"{program}.py"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            env=dict(os.environ, JAX_PLATFORMS="cpu"),
        )
        assert done.returncode == 0, f"{program}: {done.stderr[-500:]}"
        assert done.stdout.strip() == printed, program


@pytest.mark.jax
def test_the_traceback_of_an_old_program_is_explained_with_its_replacement() -> None:
    done = subprocess.run(
        [sys.executable, "old_tree_multimap.py"],
        cwd=PROGRAMS,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, JAX_PLATFORMS="cpu"),
    )
    assert done.returncode != 0
    (found,) = explain_text(done.stderr, Matcher(load_catalog()))
    assert found.match is not None and found.match.entry.id == "removed-api"
    assert found.match.fields.get("rename_to") == "jax.tree_util.tree_map"
    assert found.match.fields.get("rename_safe") == "true"


def test_unsafe_replacements_are_not_applied(tmp_path: Path) -> None:
    shutil.copy(PROGRAMS / "old_in1d.py", tmp_path / "p.py")
    before = (tmp_path / "p.py").read_text()
    _check("--fix", str(tmp_path))
    assert (tmp_path / "p.py").read_text() == before  # in1d -> isin changes the shape


def test_every_derived_rename_names_a_name_jax_0_10_2_has() -> None:
    history = load_history()
    renames = derived_renames()
    assert len(renames) > 1000
    assert sum(r.safe for r in renames.values()) > 900
    for rename in renames.values():
        if rename.method:
            continue
        verdict = history.verdict(rename.new, "0.10.2")
        assert verdict is not None and verdict.status == "ok", rename


def test_a_curated_word_wins_over_the_data() -> None:
    in1d = rename_for("jax.numpy.in1d")
    assert in1d is not None and not in1d.safe and "shape" in in1d.why


def test_the_data_file_is_what_the_loader_reads() -> None:
    from jaxerr_ls.catalog.load import catalog_dir

    data = json.loads((catalog_dir() / "renames.json").read_text(encoding="utf-8"))
    assert data["releases"][0] == "0.1" and data["releases"][-1] == "0.10.2"
    assert set(data["renames"]) == set(derived_renames())
