"""Real tracebacks (saved by scripts/upgrade-tracebacks from JAX 0.10.2 and 0.4.38) explained
with the release that removed or added the name and what JAX says to use."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import Explanation, explain_text
from jaxerr_ls.render.terminal import render_explanations

TRACEBACKS = Path(__file__).with_name("tracebacks")
MATCHER = Matcher(load_catalog())

# program -> (entry, status, removed_in or added_in, replacement JAX names)
EXPECTED = {
    "old_tree_structure": ("removed-api", "removed", "0.6.0", "jax.tree.structure"),
    "old_tree_unflatten": ("removed-api", "removed", "0.6.0", "jax.tree.unflatten"),
    "old_in1d": ("removed-api", "removed", "0.4.24", "jax.numpy.isin"),
    "old_row_stack": ("removed-api", "removed", "0.4.24", "jax.numpy.vstack"),
    "old_trapz": ("removed-api", "removed", "0.4.24", "jax.numpy.trapezoid"),
    "old_random_shuffle": ("removed-api", "removed", "0.4.31", "jax.random.permutation"),
    "old_fix": ("removed-api", "removed", "0.10.0", "jax.numpy.trunc"),
    "old_maps_module": ("removed-module", "removed", "0.4.31", "jax.experimental.shard_map"),
    "old_host_callback": ("removed-module", "removed", "0.8.0", ""),
    "old_stax_import": ("removed-module", "removed", "0.3.16", "jax.example_libraries.stax"),
    "old_config_module": ("removed-module", "removed", "0.4.29", "jax.config"),
    # A keyword a release dropped, added, or never had (the parameter history).
    "old_clip_keywords": ("keyword-not-in-release", "removed", "0.10.0", ""),
    "new_reshape_out_sharding": ("keyword-not-in-release", "not-yet", "0.6.1", ""),
    "typo_jit_keyword": ("keyword-not-in-release", "never", "", ""),
    # A module the release has, used after `import jax` alone.
    "unimported_sparse": ("jax-submodule-not-imported", "not-imported", "", ""),
    "old_linear_util_module": ("removed-module", "removed", "0.4.24", "jax.extend.linear_util"),
    "old_index_update_import": ("removed-api", "removed", "0.3.2", ""),
    "new_shard_map": ("api-not-yet-added", "not-yet", "0.6.1", ""),
    "new_ref": ("api-not-yet-added", "not-yet", "0.7.2", ""),
    "new_partition_spec_alias": ("api-not-yet-added", "not-yet", "0.7.0", ""),
    "deprecated_tree_map": ("deprecated-api", "deprecated", "0.6.0", "jax.tree.map"),
}


def _saved() -> list[Path]:
    return sorted(TRACEBACKS.glob("*@*.txt"))


def _explain(path: Path, version: str | None) -> Explanation:
    explanations = explain_text(path.read_text(encoding="utf-8"), MATCHER, jax_version=version)
    assert explanations, f"no traceback parsed from {path.name}"
    return explanations[-1]


def _traceback(line: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/tmp/user/program.py", line 3, in <module>\n'
        "    y = f(x)\n" + line + "\n"
    )


def test_every_program_has_a_saved_traceback() -> None:
    assert {p.name.split("@")[0] for p in _saved()} == set(EXPECTED)


@pytest.mark.parametrize("path", _saved(), ids=lambda p: p.stem)
def test_saved_traceback_is_explained_with_release_and_replacement(path: Path) -> None:
    program, version = path.stem.split("@")
    entry, status, release, replacement = EXPECTED[program]
    explanation = _explain(path, version)
    assert explanation.match is not None
    fields = explanation.match.fields
    assert (explanation.match.entry.id, fields["status"], fields["release"]) == (
        entry,
        status,
        version,
    )
    key = "added_in" if status == "not-yet" else "removed_in"
    assert fields.get(key, "") == release
    assert fields.get("replacement", "") == replacement
    text = render_explanations([explanation])
    if replacement:
        assert replacement in text
    if release:
        assert f"JAX {release}" in text
    # The JSON object `explain --json` prints carries the same facts.
    data = explanation.to_json()
    assert data["entry"]["id"] == entry and data["fields"]["status"] == status


@pytest.mark.parametrize("path", _saved(), ids=lambda p: p.stem)
def test_the_entry_is_of_the_class_the_form_raises(path: Path) -> None:
    """A removed name raises AttributeError, ImportError (`from m import name`) or
    ModuleNotFoundError (`import m.name`) by how the code reaches it: the entry shown is of the
    class printed, with Python's wording of that form."""
    program, version = path.stem.split("@")
    explanation = _explain(path, version)
    assert explanation.match is not None
    printed = explanation.traceback.exception
    if printed in ("AttributeError", "ImportError", "ModuleNotFoundError"):
        assert explanation.match.entry.exception == printed
        words = {"ImportError": "cannot import name", "ModuleNotFoundError": "No module named"}
        assert words.get(printed, "has no attribute") in explanation.match.entry.message


def test_new_name_without_a_known_release_still_says_when_it_was_added() -> None:
    # Text alone, no frames to read a version from, and a current JAX installed: the history
    # says shard_map is in the newest release, so the user's JAX must be older than 0.6.1.
    [explanation] = explain_text(
        _traceback("AttributeError: module 'jax' has no attribute 'shard_map'"),
        MATCHER,
        jax_version="0.10.2",
    )
    assert explanation.match is not None
    assert explanation.match.entry.id == "api-not-yet-added"
    assert explanation.match.fields["added_in"] == "0.6.1"
    # 0.10.2 has the name, so it did not raise this: the text names no release it cannot be.
    text = explanation.match.entry.meaning + " ".join(explanation.match.entry.solutions)
    assert "in no JAX release before 0.6.1" in text
    assert "0.10.2" not in text and "JAX 0.1 " not in text


def test_a_later_deprecation_is_no_advice_for_a_release_before_the_name() -> None:
    # jax.core.DebugInfo came in 0.5.1 and 0.10 deprecates it for jax.extend.core.DebugInfo:
    # a JAX without the name is told to upgrade, not to use what only later releases offer.
    [explanation] = explain_text(
        _traceback("AttributeError: module 'jax.core' has no attribute 'DebugInfo'"),
        MATCHER,
        jax_version="0.10.2",
    )
    assert explanation.match is not None
    assert explanation.match.entry.id == "api-not-yet-added"
    solutions = explanation.match.entry.solutions
    assert solutions[0].startswith("Upgrade JAX to 0.5.1 or newer")
    assert not any("jax.extend.core.DebugInfo" in solution for solution in solutions)


def test_jax_own_stub_message_is_explained_too() -> None:
    [explanation] = explain_text(
        _traceback(
            "AttributeError: jax.tree_map was removed in JAX v0.6.0: use jax.tree.map (jax "
            "v0.4.25 or newer) or jax.tree_util.tree_map (any JAX version)."
        ),
        MATCHER,
        jax_version="0.7.0",
    )
    assert explanation.match is not None
    assert explanation.match.entry.id == "removed-api"
    assert explanation.match.fields["rename_to"] == "jax.tree.map"
    assert explanation.match.fields["rename_safe"] == "true"


def test_a_specific_curated_entry_keeps_precedence() -> None:
    message = (
        "AttributeError: jax.lax.pvary was deprecated in JAX v0.8.2 and removed in JAX v0.10.0; "
        "use `jax.lax.pcast(..., to='varying')"
    )
    [explanation] = explain_text(_traceback(message), MATCHER, jax_version="0.10.2")
    assert explanation.match is not None and explanation.match.entry.id == "lax-pvary-removed"


@pytest.mark.parametrize(
    "text",
    [
        "AttributeError: module 'numpy' has no attribute 'row_stack'",
        "ModuleNotFoundError: No module named 'flax'",
        "AttributeError: module 'jax' has no attribute 'tree_mapp'",
        "ImportError: cannot import name 'numpy' from 'numpy.linalg'",
    ],
)
def test_names_the_history_does_not_know_get_no_upgrade_entry(text: str) -> None:
    [explanation] = explain_text(_traceback(text), MATCHER, jax_version="0.10.2")
    match = explanation.match
    assert match is None or match.entry.id not in {
        "removed-api",
        "removed-module",
        "api-not-yet-added",
        "deprecated-api",
        "jax-name-in-another-module",
    }


def test_a_classless_text_reaches_a_removed_name_only_when_the_history_confirms_it() -> None:
    # jax#13896 pasted `ImportError: cannot import name 'stax' from 'jax'` (no JAX had jax.stax:
    # it is jax.example_libraries.stax) and jax#372 the same for `jax.experimental` (which had
    # it until 0.3.15), as bare text.
    [elsewhere] = explain_text("cannot import name 'stax' from 'jax'", MATCHER)
    assert elsewhere.match is not None
    assert elsewhere.match.entry.id == "jax-name-in-another-module"
    assert elsewhere.match.fields["elsewhere"] == "jax.example_libraries.stax"
    unknown = explain_text("cannot import name 'staxx' from 'jax'", MATCHER)
    assert all(found.match is None for found in unknown)
    [known] = explain_text("cannot import name 'stax' from 'jax.experimental'", MATCHER)
    assert known.match is not None and known.match.entry.id == "removed-module"
    assert known.match.fields["removed_in"] == "0.3.16"


def test_jax_s_deprecation_words_without_their_class_are_a_warning() -> None:
    # haliax#229 quoted `jax.experimental.shard_map is deprecated. Use jax.shard_map instead.` in
    # a comment, without its class. It is JAX's deprecation warning, as with its class: never an
    # AttributeError of a name "this JAX is older" than (the installed JAX has the module).
    [bare] = explain_text(
        "jax.experimental.shard_map is deprecated. Use jax.shard_map instead.",
        MATCHER,
        jax_version="0.10.2",
    )
    [classed] = explain_text(
        "DeprecationWarning: jax.experimental.shard_map is deprecated. Use jax.shard_map instead.",
        MATCHER,
        jax_version="0.10.2",
    )
    assert bare.match is not None and classed.match is not None
    assert bare.match.entry.id == classed.match.entry.id == "deprecated-api"
    assert bare.match.fields.get("status") == "deprecated"


@pytest.mark.parametrize(
    ("line", "exception", "first"),
    [
        (
            "ImportError: cannot import name 'optimizers' from 'jax'",
            "ImportError",
            "jax.example_libraries.optimizers",
        ),
        (
            "AttributeError: module 'jax' has no attribute 'linalg'",
            "AttributeError",
            "jax.lax.linalg",
        ),
    ],
)
def test_a_name_jax_has_in_another_module(line: str, exception: str, first: str) -> None:
    [explanation] = explain_text(_traceback(line), MATCHER, jax_version="0.10.2")
    match = explanation.match
    assert match is not None and match.entry.id == "jax-name-in-another-module"
    assert match.entry.exception == exception
    assert match.fields["elsewhere"].split(", ")[0] == first


def test_a_submodule_is_not_imported_where_the_release_has_it() -> None:
    # JAX 0.4.26 had jax.experimental.maps (removed in 0.4.31): there it only needed an import.
    line = "AttributeError: module 'jax.experimental' has no attribute 'maps'"
    [old] = explain_text(_traceback(line), MATCHER, jax_version="0.4.26")
    assert old.match is not None and old.match.entry.id == "jax-submodule-not-imported"
    assert "import jax.experimental.maps" in old.match.entry.title
    [new] = explain_text(_traceback(line), MATCHER, jax_version="0.10.2")
    assert new.match is not None and new.match.entry.id == "removed-module"
    # A name the parent binds itself is not a submodule to import.
    tree = "AttributeError: module 'jax' has no attribute 'tree_multimap'"
    [removed] = explain_text(_traceback(tree), MATCHER, jax_version="0.10.2")
    assert removed.match is not None and removed.match.entry.id == "removed-api"
