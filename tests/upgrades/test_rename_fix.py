"""The api-rename fix: drop-in renames are safe, behaviour-changing ones say so, nothing else."""

from __future__ import annotations

import pytest

from jaxerr_ls.fixes import FixContext, fixes_at_cursor
from jaxerr_ls.upgrades.renames import safe_renames, unsafe_renames
from tests.fixes.helpers import fixed, propose

NEW = {"release": "0.10.2"}


@pytest.mark.parametrize(
    ("source", "at", "after"),
    [
        (
            "import jax\nt = jax.tree_structure({'a': 1})\n",
            "tree_structure",
            "import jax\nt = jax.tree.structure({'a': 1})\n",
        ),
        (
            "import jax.numpy as jnp\nr = jnp.row_stack([jnp.ones(2)])\n",
            "row_stack",
            "import jax.numpy as jnp\nr = jnp.vstack([jnp.ones(2)])\n",
        ),
        (
            "import jax\nr = jax.numpy.trapz(y, x)\n",
            "trapz",
            "import jax\nr = jax.numpy.trapezoid(y, x)\n",
        ),
        (
            "from jax import tree_map\nout = tree_map(f, xs)\n",
            "import tree_map",
            "from jax.tree import map as tree_map\nout = tree_map(f, xs)\n",
        ),
        (
            "from jax.numpy import row_stack as rs\nout = rs(xs)\n",
            "import row_stack",
            "from jax.numpy import vstack as rs\nout = rs(xs)\n",
        ),
        (
            "import jax\nboth = (jax.tree_leaves(a), jax.tree_flatten(b))\n",
            "tree_leaves",
            "import jax\nboth = (jax.tree.leaves(a), jax.tree.flatten(b))\n",
        ),
    ],
)
def test_safe_rename(source: str, at: str, after: str) -> None:
    proposal = propose("api-rename", source, at, NEW, "removed-api")
    assert proposal is not None and proposal.safe
    assert fixed("api-rename", source, at, NEW, "removed-api") == after


def test_behaviour_changing_replacement_is_offered_unsafe_and_says_why() -> None:
    source = "import jax.numpy as jnp\nm = jnp.in1d(a, b)\n"
    proposal = propose("api-rename", source, "in1d", NEW, "removed-api")
    assert proposal is not None and not proposal.safe
    assert "changes behaviour" in proposal.title and "isin" in proposal.title


@pytest.mark.parametrize(
    "source",
    [
        # JAX names a replacement, but it is a different call (a keyword to add): explained only.
        "import jax\no = jax.random.shuffle(key, x)\n",
        # Removed with no replacement named.
        "from jax.experimental import host_callback\n",
        # Splitting a multi-name import is left to the user.
        "from jax import tree_map, tree_leaves\n",
        # Names that exist are left alone.
        "import jax\no = jax.tree.map(f, x)\n",
        # Not JAX.
        "import numpy as jnp\nr = jnp.row_stack(x)\n",
    ],
)
def test_no_fix_offered(source: str) -> None:
    line = len(source.splitlines()) - 1
    assert propose("api-rename", source, source.splitlines()[line], NEW, "removed-api") is None


def test_offered_at_the_cursor_without_a_diagnostic() -> None:
    source = "import jax\nt = jax.tree_unflatten(d, leaves)\n"
    found = [p for p in fixes_at_cursor(FixContext(source, 1, 9)) if p.fix_id == "api-rename"]
    assert [p.title for p in found] == ["Rename jax.tree_unflatten to jax.tree.unflatten"]


def test_every_rename_follows_jax_message() -> None:
    from jaxerr_ls.upgrades.history import load_history

    history = load_history()
    for rename in [*safe_renames().values(), *unsafe_renames().values()]:
        facts = history.facts(rename.old)
        assert facts is not None, rename.old
        # JAX's own message names the new name (random.KeyArray: "Use jax.Array for ..."), or
        # JAX's sources show the old name was the same object (upgrades/derive.py).
        assert facts.replacement == rename.new or "the same object" in rename.why, (
            rename.old,
            facts.replacement,
        )
        now = history.verdict(rename.new, history.newest)
        assert now is not None and now.status == "ok", rename.new
