"""The libraries' API history (`catalog/library-api-history.json.gz`, read from Flax, Optax,
Equinox, Chex and Orbax wheels by scripts/library-api-history): a name a library removed or added
later is explained with the library's releases, on the pastes users posted (field corpus,
verbatim, URLs in tests/field/pastes/index.json)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import explain_text
from jaxerr_ls.render.terminal import render_explanations
from jaxerr_ls.upgrades.libraries import (
    PIP_NAMES,
    history_releases,
    library_history,
    library_of_name,
)
from jaxerr_ls.upgrades.scan import scan_module

PASTES = Path(__file__).resolve().parent.parent / "field" / "pastes"
HOLDOUT = PASTES.parent / "holdout"
MATCHER = Matcher(load_catalog())


def _paste(number: str) -> str:
    [path] = PASTES.glob(f"{number}-*.txt")
    return path.read_text(encoding="utf-8")


def test_every_library_has_its_releases() -> None:
    for library in PIP_NAMES:
        history = library_history(library)
        assert history is not None and history.releases == history_releases(library)


def test_what_the_releases_read_show() -> None:
    flax, optax = library_history("flax"), library_history("optax")
    assert flax is not None and optax is not None
    optim = flax.facts("flax.optim")
    assert optim is not None and optim.spans == (("0.1.0", "0.5.3"),)
    zeros = flax.facts("flax.linen.initializers.zeros_init")
    assert zeros is not None and zeros.spans == (("0.6.4", ""),)
    lion = optax.facts("optax.ScaleByLionState")
    assert lion is not None and lion.added_in == "0.1.5"
    adam = optax.facts("optax.adam")  # in every release
    assert adam is not None and adam.spans == (("0.0.1", ""),)


@pytest.mark.parametrize(
    ("number", "entry", "library", "said"),
    [
        ("181", "removed-api", "flax", "gone in Flax 0.6.0"),  # naruya/VaxNeRF#10
        ("202", "api-not-yet-added", "flax", "since Flax 0.6.4"),  # flax#3117
        ("179", "api-not-yet-added", "optax", "since Optax 0.1.5"),  # magenta/mt3#119
    ],
)
def test_a_pasted_library_name_is_explained(
    number: str, entry: str, library: str, said: str
) -> None:
    found = [e for e in explain_text(_paste(number), MATCHER) if e.match is not None][0]
    assert found.match is not None
    assert (found.match.entry.id, found.match.entry.library) == (entry, library)
    assert found.match.entry.exception == "AttributeError"
    text = render_explanations([found])
    assert said in text
    assert f"pip show {library}" in text  # what to check: the release installed
    assert "JAX 0." not in text.split("How to fix")[0]  # the library's releases, not JAX's
    assert "api-rename" not in text  # JAX's quick fix is not offered for a library's name


@pytest.mark.parametrize(
    "line",
    [
        "AttributeError: module 'optax' has no attribute 'adam'",  # every optax has it: no claim
        "AttributeError: module 'flax' has no attribute 'no_such_name'",
        "ModuleNotFoundError: No module named 'flax'",
        "AttributeError: module 'orbax' has no attribute 'checkpoint'",  # in every release read
    ],
)
def test_names_a_library_history_does_not_support_get_no_upgrade_entry(line: str) -> None:
    text = 'Traceback (most recent call last):\n  File "t.py", line 1, in <module>\n    x\n'
    [found] = explain_text(text + line + "\n", MATCHER)
    assert found.match is None or found.match.entry.id not in {"removed-api", "api-not-yet-added"}


def test_orbax_names_by_release() -> None:
    """Orbax re-exports its public API with star imports (`from orbax.checkpoint.checkpointers
    import *`): the names they bring are in the history, so none is said to be removed;
    orbax#667's `test_utils.create_empty` was, after 0.5.3."""
    orbax = library_history("orbax")
    assert orbax is not None and orbax.releases[0] == "0.1.4"
    checkpointer = orbax.facts("orbax.checkpoint.Checkpointer")
    assert checkpointer is not None and checkpointer.spans == (("0.1.4", ""),)
    [found] = explain_text(
        "AttributeError: module 'orbax.checkpoint.test_utils' has no attribute 'create_empty'",
        MATCHER,
    )
    assert found.match is not None and found.match.entry.id == "removed-api"
    text = " ".join(render_explanations([found]).split())
    assert "was an Orbax name in Orbax 0.5.0–0.5.3 and is gone in Orbax 0.5.4" in text
    assert "pip show orbax-checkpoint" in text


def test_a_name_of_every_orbax_release_read_is_missing_from_an_older_orbax() -> None:
    """mt3#54 (holdout): `orbax.checkpoint.Checkpointer` is in every orbax-checkpoint release
    read (0.1.4 on); missing, the Orbax installed predates them (published as `orbax`)."""
    text = (HOLDOUT / "741-mt3-54-orbax-no-checkpointer.txt").read_text(encoding="utf-8")
    [found] = explain_text(text, MATCHER)
    assert found.match is not None and found.match.entry.id == "api-not-yet-added"
    assert found.match.entry.library == "orbax"
    said = " ".join(render_explanations([found]).split())
    assert "orbax.checkpoint.Checkpointer is in every Orbax release since 0.1.4" in said
    assert "published as the `orbax` package" in said
    assert "pip show orbax-checkpoint orbax" in said
    # Flax's history starts at its first release: no release older than it to blame.
    [flax] = explain_text(
        "AttributeError: module 'flax.serialization' has no attribute 'to_bytes'", MATCHER
    )
    assert flax.match is None or flax.match.entry.id != "api-not-yet-added"


def test_library_of_name() -> None:
    assert library_of_name("flax.linen.Dense") == "flax"
    assert library_of_name("jax.numpy.trapz") is None
    assert library_of_name("flaxy.thing") is None


def test_a_library_module_reexports_its_own_and_jax_names() -> None:
    source = (
        "from flax.linen.linear import Dense\n"
        "from jax.nn.initializers import zeros\n"
        "from typing import Any\n"
        "import flax.linen as nn\n"
    )
    scan = scan_module(source, ("flax", "jax", "jaxlib"))
    assert {"Dense", "zeros", "nn"} <= scan.names and "Any" not in scan.names
    # JAX's own modules keep JAX's rule: a plain import from another package is no export.
    assert "Dense" not in scan_module(source).names


def test_a_library_submodule_the_installed_release_lacks() -> None:
    """`from flax.linen import partitioning` on a Flax before 0.3.6: Python's words for a missing
    submodule, explained from every release's modules (the sample's first release had it)."""
    text = 'Traceback (most recent call last):\n  File "t.py", line 1, in <module>\n    x\n'
    line = "ImportError: cannot import name 'partitioning' from 'flax.linen' (/x/flax/linen/__init__.py)"
    [found] = explain_text(text + line + "\n", MATCHER)
    assert found.match is not None and found.match.entry.id == "api-not-yet-added"
    assert "flax.linen.partitioning was added in Flax 0.3.6" in found.match.entry.title


@pytest.mark.parametrize(
    ("line", "who"),
    [
        ("ImportError: cannot import name 'BoundMethod' from 'equinox._module'", "Equinox"),
        ("ImportError: cannot import name 'OptState' from 'optax._src.transform'", "Optax"),
    ],
)
def test_a_library_private_name_is_said_of_that_library(line: str, who: str) -> None:
    """A library's private module (no history kept): said as JAX's private names are, of that
    library, with its own install to check; never JAX's example or quick fixes."""
    text = 'Traceback (most recent call last):\n  File "t.py", line 1, in <module>\n    x\n'
    [found] = explain_text(text + line + "\n", MATCHER)
    assert found.match is not None
    entry = found.match.entry
    assert entry.title.endswith(f"is private to {who}, and this release lacks it")
    assert entry.library == who.lower() and entry.exception == "ImportError"
    rendered = render_explanations([found])
    assert f"pip show {who.lower()}" in rendered and "jax._src" not in rendered
    assert entry.example is None and not entry.triggers and not entry.fixes
