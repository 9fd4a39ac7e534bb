"""Flag before running: the api-history rule and `jaxerr-ls check --jax/--fix`."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from jaxerr_ls.rules import check_source, rules_for
from jaxerr_ls.shells.cli.check import run_check

PROGRAMS = Path(__file__).with_name("programs")


def _findings(source: str, release: str) -> list[tuple[int, str, str]]:
    return [
        (f.line + 1, f.entry, f.fields.get("name", ""))
        for f in check_source(source, rules_for(release))
        if f.rule == "api-history"
    ]


@pytest.mark.parametrize(
    ("program", "release", "expected"),
    [
        ("old_tree_structure", "0.10.2", [(5, "removed-api", "jax.tree_structure")]),
        ("old_tree_structure", "0.4.38", [(5, "deprecated-api", "jax.tree_structure")]),
        ("old_row_stack", "0.10.2", [(3, "removed-api", "jax.numpy.row_stack")]),
        ("old_in1d", "0.10.2", [(4, "removed-api", "jax.numpy.in1d")]),
        ("old_trapz", "0.10.2", [(4, "removed-api", "jax.numpy.trapz")]),
        ("old_random_shuffle", "0.10.2", [(5, "removed-api", "jax.random.shuffle")]),
        ("old_random_shuffle", "0.4.30", [(5, "deprecated-api", "jax.random.shuffle")]),
        ("old_maps_module", "0.10.2", [(2, "removed-module", "jax.experimental.maps")]),
        ("old_maps_module", "0.4.30", [(2, "deprecated-api", "jax.experimental.maps")]),
        ("old_host_callback", "0.10.2", [(3, "removed-module", "jax.experimental.host_callback")]),
        ("new_shard_map", "0.4.38", [(8, "api-not-yet-added", "jax.shard_map")]),
        ("new_shard_map", "0.6.1", []),
        ("new_ref", "0.4.38", [(4, "api-not-yet-added", "jax.new_ref")]),
        ("new_ref", "0.10.2", []),
    ],
)
def test_rule_flags_names_the_release_lacks_or_deprecates(
    program: str, release: str, expected: list[tuple[int, str, str]]
) -> None:
    source = (PROGRAMS / f"{program}.py").read_text(encoding="utf-8")
    assert _findings(source, release) == expected


def test_message_says_the_release_and_jax_advice() -> None:
    source = (PROGRAMS / "old_random_shuffle.py").read_text(encoding="utf-8")
    [finding] = [f for f in check_source(source, rules_for("0.10.2")) if f.rule == "api-history"]
    assert finding.message.startswith("AttributeError: jax.random.shuffle is not in JAX 0.10.2")
    assert "removed in JAX 0.4.31" in finding.message
    assert "use jax.random.permutation with independent=True" in finding.message
    line = source.splitlines()[finding.line]
    assert line[finding.column : finding.end_column] == "jax.random.shuffle"


def test_aliases_and_from_imports_are_resolved() -> None:
    source = (
        "import jax.numpy as np2\n"
        "from jax import tree_map as tm\n"
        "from jax.experimental import maps\n"
        "x = np2.row_stack([np2.ones(2)])\n"
        "y = tm(abs, [1])\n"
        "z = maps.xmap\n"
    )
    assert _findings(source, "0.10.2") == [
        (2, "removed-api", "jax.tree_map"),
        (3, "removed-module", "jax.experimental.maps"),
        (4, "removed-api", "jax.numpy.row_stack"),
    ]


def test_ignore_comment_silences_it() -> None:
    source = "import jax\njax.tree_map(abs, [1])  # jaxerr: ignore[removed-api]\n"
    assert _findings(source, "0.10.2") == []


def test_correct_code_is_quiet() -> None:
    source = (
        "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import PartitionSpec as P\n"
        "x = jax.tree.map(jnp.sin, {'a': jnp.ones(2)})\ny = jnp.vstack([x['a']])\n"
        "key = jax.random.key(0)\nz = jax.random.permutation(key, 3)\n"
    )
    assert _findings(source, "0.10.2") == []


def _run(*args: str, jax: str | None = None, fix: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_check(list(args), False, out, err, jax_version=jax, fix=fix)
    return code, out.getvalue(), err.getvalue()


def test_check_fix_applies_only_safe_renames(tmp_path: Path) -> None:
    for name in ("old_tree_structure", "old_row_stack", "old_in1d", "old_trapz"):
        shutil.copy(PROGRAMS / f"{name}.py", tmp_path / f"{name}.py")
    code, out, err = _run(str(tmp_path), jax="0.10.2", fix=True)
    assert "jax.tree.structure(params)" in (tmp_path / "old_tree_structure.py").read_text()
    assert "jnp.vstack([" in (tmp_path / "old_row_stack.py").read_text()
    assert "jnp.trapezoid(xs**2, xs)" in (tmp_path / "old_trapz.py").read_text()
    # in1d -> isin changes the result's shape for N-D input: not applied, still flagged.
    assert "jnp.in1d(" in (tmp_path / "old_in1d.py").read_text()
    assert code == 1 and "old_in1d.py:4:8: removed-api" in out
    assert "old_row_stack.py" not in out and "renamed 1 use(s)" in err
    # Running again changes nothing more.
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    _run(str(tmp_path), jax="0.10.2", fix=True)
    assert before == {p.name: p.read_text() for p in tmp_path.iterdir()}


def test_check_against_an_old_release(tmp_path: Path) -> None:
    shutil.copy(PROGRAMS / "new_shard_map.py", tmp_path / "p.py")
    code, out, _ = _run(str(tmp_path / "p.py"), jax="0.4.38")
    assert code == 1
    assert "p.py:8:5: api-not-yet-added AttributeError: jax.shard_map is not in JAX 0.4.38" in out
    assert "added in JAX 0.6.1" in out
    assert _run(str(tmp_path / "p.py"), jax="0.10.2")[0] == 0


@pytest.mark.parametrize("version", ["latest", "0.0.9"])  # 0.1 is the oldest read
def test_bad_or_uncatalogued_release_is_a_clear_error(tmp_path: Path, version: str) -> None:
    (tmp_path / "p.py").write_text("import jax\n")
    code, out, err = _run(str(tmp_path / "p.py"), jax=version)
    assert code == 2 and out == "" and f"--jax {version}" in err
