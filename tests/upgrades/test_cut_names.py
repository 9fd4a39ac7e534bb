"""A missing name's message cut inside the name is completed only when one name can be meant
(field pastes: kfac-jax#314's `'DebugInf`, localcolabfold#282's `'transf`)."""

from __future__ import annotations

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog.templates import Match
from jaxerr_ls.explain import explain_text
from jaxerr_ls.upgrades.cut_names import complete_cut_name, complete_from_source
from jaxerr_ls.upgrades.history import load_history

HISTORY = load_history()


def test_an_attribute_cut_inside_its_name_is_the_one_name_of_the_module_it_begins() -> None:
    completed = complete_cut_name(
        "module 'jax.core' has no attribute 'DebugInf", HISTORY, source=""
    )
    assert completed is not None
    assert completed.name == "jax.core.DebugInfo"
    assert completed.message == "module 'jax.core' has no attribute 'DebugInfo'"


def test_a_prefix_several_names_begin_is_left_as_it_is() -> None:
    # jax.tree_map, jax.tree_flatten, jax.tree_util, ...: which one is not known.
    assert complete_cut_name("module 'jax' has no attribute 'tree_", HISTORY, "") is None
    # Too short to say anything, and a message that is whole.
    assert complete_cut_name("module 'jax.core' has no attribute 'De", HISTORY, "") is None
    assert complete_cut_name("module 'jax.core' has no attribute 'DebugInfo'", HISTORY, "") is None


def test_an_import_cut_inside_its_name_is_read_from_the_raising_line() -> None:
    line = "from jax._src.api import transformation, vmap as _vmap"
    completed = complete_cut_name("cannot import name 'transf", HISTORY, line)
    assert completed is not None
    assert completed.message == "cannot import name 'transformation' from 'jax._src.api'"
    # The line imports no name that begins so, or is not an import from JAX.
    assert complete_cut_name("cannot import name 'grad_", HISTORY, line) is None
    assert (
        complete_cut_name("cannot import name 'transf", HISTORY, "from foo import transf_x") is None
    )


def _explained(path: str, source: str, error: str, jax_version: str) -> Match:
    """The one explanation of a traceback of one frame (`path`, its line `source`)."""
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 3, in <module>\n'
        f"    {source}\n"
        f"AttributeError: {error}"
    )
    [explanation] = explain_text(text, Matcher(load_catalog()), jax_version=jax_version)
    assert explanation.match is not None
    return explanation.match


def test_the_explanation_says_what_was_read_into_the_cut_message() -> None:
    path = "/venv/lib/python3.11/site-packages/ferminet/train.py"
    match = _explained(
        path, "kfac_jax.foo()", "module 'jax.core' has no attribute 'DebugInf", "0.4.30"
    )
    assert match.entry.id == "api-not-yet-added"
    assert match.cut
    assert "`DebugInf` is read as `jax.core.DebugInfo`" in match.entry.meaning


def test_an_attribute_cut_before_its_name_is_read_from_the_raising_line() -> None:
    """tfold's `AttributeError: modu` under `def stable_softmax(logits: jax.Array)` and netket#667's
    `module 'jaxlib.x` under `Union[np.ndarray, jaxlib.xla_extension.DeviceArray, ...]` (tuned
    pastes 1854, 1469): the one JAX name on the line that fits the cut and was ever missing."""
    line = "def stable_softmax(logits: jax.Array) -> jax.Array:"
    completed = complete_from_source("modu", HISTORY, line)
    assert completed is not None and completed.from_source
    assert completed.message == "module 'jax' has no attribute 'Array'"
    line = "ArrayT = Union[np.ndarray, jaxlib.xla_extension.DeviceArray, jax.core.Tracer]"
    completed = complete_from_source("module 'jaxlib.x", HISTORY, line)
    assert completed is not None and completed.name == "jaxlib.xla_extension.DeviceArray"
    # Two names fit the cut; no JAX name on the line; too short.
    assert complete_from_source("modu", HISTORY, "x = jax.Array + jax.tree_map") is None
    assert complete_from_source("modu", HISTORY, "y = np.sum(x)") is None
    assert complete_from_source("mod", HISTORY, "def f(x: jax.Array): ...") is None
    # A whole message is not cut before its name.
    assert complete_from_source("module 'jax' has no attribute 'Array'", HISTORY, line) is None


def test_the_explanation_says_the_name_was_read_off_the_line() -> None:
    path = "/choncc/alphafold/alphafold/model/utils.py"
    line = "def stable_softmax(logits: jax.Array) -> jax.Array:"
    match = _explained(path, line, "modu", "0.3.10")
    assert match.entry.id == "api-not-yet-added"
    assert "the one JAX name on the failing line that fits" in match.entry.meaning
