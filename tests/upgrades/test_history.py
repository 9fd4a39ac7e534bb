"""The API history: the scanner on small sources, the shipped file against real JAX facts, and
(slow) a rebuild from one real wheel downloaded by pip."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jaxerr_ls.upgrades.build import build_history, ranges, replacement_in, scan_wheel
from jaxerr_ls.upgrades.history import ApiHistory, load_history
from jaxerr_ls.upgrades.scan import scan_module

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "catalog" / "api-history.json"

MODULE = """
from jax._src.tree_util import tree_map as _deprecated_tree_map
from jax._src.numpy import vstack as vstack, isin
from functools import partial
import numpy as np
import jax.numpy as numpy
pi = 3.14
def helper(): ...
class Thing: ...
gone = 1
del gone
_deprecations = {
  "tree_map": ("jax.tree_map is deprecated: use jax.tree.map (jax v0.4.25 or newer).",
               _deprecated_tree_map),
  "tree_structure": (
    "jax.tree_structure was removed in JAX v0.6.0: use jax.tree.structure", None),
}
import typing as _typing
if _typing.TYPE_CHECKING:
  from jax._src.tree_util import tree_map as tree_map
else:
  __getattr__ = object()
"""


def test_scan_reads_public_names_and_the_deprecation_table() -> None:
    scan = scan_module(MODULE)
    assert scan.names == {"vstack", "isin", "numpy", "pi", "helper", "Thing"}
    assert scan.deprecations["tree_map"].removed is False
    assert scan.deprecations["tree_structure"].removed is True
    assert scan.deprecations["tree_structure"].message.startswith("jax.tree_structure was removed")


def test_scan_of_bad_source_is_empty() -> None:
    assert scan_module("def (:\n").names == set()


def test_replacement_is_the_name_jax_says_to_use() -> None:
    assert replacement_in("jnp.trapz is deprecated; use jnp.trapezoid instead.") == (
        "jax.numpy.trapezoid"
    )
    assert replacement_in("x is deprecated. Use jax.random.permutation with independent=True.") == (
        "jax.random.permutation"
    )
    assert replacement_in("removed; use `jax.lax.pcast(..., to='varying')") == "jax.lax.pcast"
    assert replacement_in("jax.foo is deprecated and will be removed") == ""


def test_ranges_are_compact_and_open_ended() -> None:
    releases = ["0.1", "0.2", "0.3", "0.4"]
    assert ranges([True, True, False, False], releases) == "0.1-0.2"
    assert ranges([False, True, True, True], releases) == "0.2-"
    assert ranges([True, False, True, True], releases) == "0.1-0.1,0.3-"
    assert ranges([False] * 4, releases) == ""


def test_history_built_from_three_releases_answers_removed_and_not_yet() -> None:
    old = scan_module("from jax._src import a as tree_map\n")
    mid = scan_module(MODULE)
    new = scan_module(
        'from jax._src import b as shard_map\n_deprecations = {"tree_map": ("jax.tree_map was removed in JAX v0.3: use jax.tree.map", None)}\n'
    )
    history = ApiHistory(
        build_history({"0.1": {"jax": old}, "0.2": {"jax": mid}, "0.3": {"jax": new}})
    )
    removed = history.verdict("jax.tree_map", "0.3")
    assert removed is not None and removed.status == "removed" and removed.removed_in == "0.3"
    assert removed.facts.replacement == "jax.tree.map"
    deprecated = history.verdict("jax.tree_map", "0.2")
    assert deprecated is not None and deprecated.status == "deprecated"
    added = history.verdict("jax.shard_map", "0.2")
    assert added is not None and added.status == "not-yet" and added.added_in == "0.3"
    assert history.verdict("jax.nothing_like_this", "0.3") is None


@pytest.mark.parametrize(
    ("name", "release", "status", "removed_in", "replacement"),
    [
        # Real JAX facts, as JAX's wheels and messages state them.
        ("jax.tree_structure", "0.10.2", "removed", "0.6.0", "jax.tree.structure"),
        ("jax.tree_unflatten", "0.10.2", "removed", "0.6.0", "jax.tree.unflatten"),
        ("jax.tree_map", "0.4.38", "deprecated", "0.6.0", "jax.tree.map"),
        ("jax.random.shuffle", "0.10.2", "removed", "0.4.31", "jax.random.permutation"),
        ("jax.numpy.fix", "0.10.2", "removed", "0.10.0", "jax.numpy.trunc"),
        ("jax.lax.pvary", "0.10.2", "removed", "0.10.0", "jax.lax.pcast"),
        ("jax.experimental.maps", "0.10.2", "removed", "0.4.31", "jax.experimental.shard_map"),
        ("jax.experimental.host_callback", "0.10.2", "removed", "0.8.0", ""),
        # Gone before 0.4.26: the sdists of every release 0.1-0.4.25 are read too (the first
        # release without the name; PyPI has no 0.4.15, so jnp.product is gone "in" 0.4.16).
        ("jnp.row_stack", "0.10.2", "removed", "0.4.24", "jax.numpy.vstack"),
        ("jnp.in1d", "0.10.2", "removed", "0.4.24", "jax.numpy.isin"),
        ("jnp.trapz", "0.10.2", "removed", "0.4.24", "jax.numpy.trapezoid"),
        ("jnp.product", "0.10.2", "removed", "0.4.16", "jax.numpy.prod"),
        ("jnp.alltrue", "0.4.13", "deprecated", "0.4.16", "jax.numpy.all"),
        ("jax.abstract_arrays.ShapedArray", "0.4.1", "ok", "0.4.16", "jax.core.ShapedArray"),
        ("jax.experimental.stax", "0.10.2", "removed", "0.3.16", "jax.example_libraries.stax"),
    ],
)
def test_shipped_history_knows_real_removals(
    name: str, release: str, status: str, removed_in: str, replacement: str
) -> None:
    verdict = load_history(SHIPPED).verdict(name, release)
    assert verdict is not None
    assert (verdict.status, verdict.removed_in, verdict.facts.replacement) == (
        status,
        removed_in,
        replacement,
    )


@pytest.mark.parametrize(
    ("name", "added_in"),
    [("jax.shard_map", "0.6.1"), ("jax.new_ref", "0.7.2"), ("jax.P", "0.7.0")],
)
def test_shipped_history_knows_when_names_were_added(name: str, added_in: str) -> None:
    verdict = load_history(SHIPPED).verdict(name, "0.4.38")
    assert verdict is not None and (verdict.status, verdict.added_in) == ("not-yet", added_in)
    now = load_history(SHIPPED).verdict(name, "0.10.2")
    assert now is not None and now.status == "ok"


def test_shipped_history_is_small_and_complete() -> None:
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert SHIPPED.stat().st_size < 500_000
    assert data["releases"][0] == "0.1" and data["releases"][-1] == "0.10.2"
    for module in (
        "jax",
        "jax.numpy",
        "jax.lax",
        "jax.random",
        "jax.tree_util",
        "jax.tree",
        "jax.nn",
        "jax.sharding",
        "jax.extend",
        "jax.scipy.linalg",
        "jax.experimental.pallas",
        "jax.experimental.pallas.tpu",
    ):
        assert module in data["modules"], module
    assert len(data["modules"]["jax.numpy"]["names"]) > 400


def test_unknown_version_stands_for_the_nearest_older_release() -> None:
    history = load_history(SHIPPED)
    assert history.release_for("0.4.32") == "0.4.31"
    assert history.release_for("0.11.0") == "0.10.2"
    assert history.release_for(None) == "0.10.2"
    assert history.release_for("0.3.3") == "0.3.3"  # every release of 0.1-0.4.25 is read
    assert history.release_for("0.3.18") == "0.3.17"  # not on PyPI: the nearest older one
    assert history.release_for("0.0.9") == "0.1"


@pytest.mark.slow
def test_history_built_from_a_real_wheel(tmp_path: Path) -> None:
    cache = ROOT / ".cache" / "wheels"
    wheel = cache / "jax-0.6.0-py3-none-any.whl"
    if not wheel.exists():
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                "jax==0.6.0",
                "-d",
                str(cache),
            ],
            check=True,
            timeout=600,
        )
    scans = scan_wheel(wheel)
    history = ApiHistory(build_history({"0.6.0": scans}))
    gone = history.verdict("jax.tree_structure", "0.6.0")
    assert gone is not None and gone.facts.replacement == "jax.tree.structure"
    assert "was removed in JAX v0.6.0" in gone.facts.message
    assert (
        "vstack" in scans["jax.numpy"].names
        and "shard_map" in scans["jax.experimental.shard_map"].names
    )


def test_a_deprecation_message_names_the_name_it_was_recorded_for() -> None:
    history = load_history()
    said = "Accessing jax.config via the jax.config submodule is deprecated."
    assert history.names_warned_by(said) == ["jax.config.config"]
    # Words of no recorded message, and a message's first words alone, name nothing.
    assert history.names_warned_by("Accessing jax.config is fine.") == []
    assert history.names_warned_by("Accessing jax.config via") == []


def test_a_star_import_of_the_package_s_own_module_brings_its_names(tmp_path: Path) -> None:
    """Orbax's `orbax/checkpoint/__init__.py` re-exports with `from orbax.checkpoint.checkpointers
    import *` (and relative forms): those names are the package's; a star import of a private
    module, which the history does not read, leaves the module's names unknown (open)."""
    import zipfile

    wheel = tmp_path / "orbax_checkpoint-9.9.9-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(
            "orbax/checkpoint/__init__.py",
            "from orbax.checkpoint.checkpointers import *\nfrom .handlers import *\n",
        )
        archive.writestr(
            "orbax/checkpoint/checkpointers.py",
            "from orbax.checkpoint._src.checkpointer import Checkpointer\nfrom .more import *\n",
        )
        archive.writestr("orbax/checkpoint/more.py", "class PyTreeCheckpointer: ...\n")
        archive.writestr(
            "orbax/checkpoint/handlers.py", "def _private(): ...\nclass Handler: ...\n"
        )
        archive.writestr("orbax/checkpoint/partial.py", "from orbax.checkpoint._src.x import *\n")
    scans = scan_wheel(wheel, "orbax")
    top = scans["orbax.checkpoint"]
    assert {"Checkpointer", "PyTreeCheckpointer", "Handler"} <= top.names
    assert "_private" not in top.names and not top.open
    assert scans["orbax.checkpoint.partial"].open
