"""Message -> entry: templates, then patterns, then a close fuzzy score; never a weak guess."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Catalog, Entry, Matcher, load_catalog
from jaxerr_ls.catalog.classes import identified_words


def entry(entry_id: str, exception: str, message: str, **extra: object) -> Entry:
    return Entry(
        id=entry_id, exception=exception, message=message, title=entry_id, curated=True, **extra
    )  # type: ignore[arg-type]


CATALOG = Catalog.of(
    [
        entry(
            "shape",
            "TypeError",
            "Shapes must be 1D sequences of concrete values of integer type, got {shape}.",
        ),
        entry("axis", "ValueError", "axis {axis} is out of bounds for array of dimension {ndim}"),
        entry(
            "scan",
            "ValueError",
            "scan got values with different leading axis sizes: {sizes}; the carry must keep "
            "its leading axis size across iterations",
        ),
        entry("literal-braces", "KeyError", "missing key {{'a'}} in {where}"),
        entry(
            "concrete-zeros",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: {what}",
            patterns=(r"argument of jnp\.zeros",),
        ),
        entry(
            "generic",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: {what}",
        ),
        entry("short", "ValueError", "{msg}"),
    ]
)
MATCHER = Matcher(CATALOG)


def test_template_match_captures_placeholders() -> None:
    found = MATCHER.match("ValueError", "axis 3 is out of bounds for array of dimension 2")
    assert found is not None
    assert found.entry.id == "axis"
    assert found.fields == {"axis": "3", "ndim": "2"}
    assert found.score == 100


def test_whitespace_and_trailing_lines_do_not_matter() -> None:
    message = "axis  3 is out of bounds\nfor array of dimension 2\nSee https://docs.jax.dev/errors"
    found = MATCHER.match("ValueError", message)
    assert found is not None and found.entry.id == "axis"


def test_dotted_exception_names_match_short_class() -> None:
    message = (
        "Shapes must be 1D sequences of concrete values of integer type, got (Traced<int32[]>,)."
    )
    found = MATCHER.match("builtins.TypeError", message)
    assert found is not None and found.fields == {"shape": "(Traced<int32[]>,)"}


def test_literal_braces_are_literal() -> None:
    found = MATCHER.match("KeyError", "missing key {'a'} in config")
    assert found is not None and found.fields == {"where": "config"}


def test_pattern_outranks_template_of_same_class() -> None:
    head = "Abstract tracer value encountered where concrete value is expected: traced array"
    found = MATCHER.match("ConcretizationTypeError", head + "\nIt arose in jnp.ones")
    assert found is not None and found.entry.id == "generic"
    found = MATCHER.match(
        "ConcretizationTypeError", head + "\nIt arose in the argument of jnp.zeros"
    )
    assert found is not None and found.entry.id == "concrete-zeros"


def test_other_exception_class_lowers_the_score() -> None:
    found = MATCHER.match("RuntimeError", "axis 3 is out of bounds for array of dimension 2")
    assert found is not None and found.entry.id == "axis" and found.score < 100


def test_fuzzy_fallback_accepts_close_text_only() -> None:
    close = MATCHER.match("ValueError", "axis 3 is out of bound for array of dimensions 2!")
    assert close is not None and close.entry.id == "axis" and 88 <= close.score < 100
    assert MATCHER.match("ValueError", "the moon is made of cheese") is None


def test_placeholder_only_templates_never_match_everything() -> None:
    assert MATCHER.match("ValueError", "totally unrelated words here") is None


@pytest.mark.parametrize(
    ("exception", "message", "entry_id"),
    [
        (
            "ValueError",
            "Eager shard_map cannot return a `jax.Ref`. Please wrap your shard_map in `jax.jit`.",
            "eager-shard-map-ref",
        ),
        ("TypeError", "ref must be a reference", "pallas-mosaic-gpu-ref-not-reference"),
    ],
)
def test_seed_messages_match_their_entries(exception: str, message: str, entry_id: str) -> None:
    found = Matcher(load_catalog()).match(exception, message)
    assert found is not None and found.entry.id == entry_id and found.score == 100


def test_placeholder_glued_to_the_first_word() -> None:
    matcher = Matcher(
        Catalog.of(
            [
                entry(
                    "lax",
                    "TypeError",
                    "lax.{op} requires arguments to have the same dtypes, got {dtypes}.",
                )
            ]
        )
    )
    found = matcher.match(
        "TypeError", "lax.add requires arguments to have the same dtypes, got float32, int32."
    )
    assert found is not None and found.score == 100
    assert found.fields == {"op": "add", "dtypes": "float32, int32"}


@pytest.mark.parametrize(
    ("message", "fields"),
    [
        # cut inside a placeholder's value, inside the piece after it (mid-word), with a "..."
        (
            "scan got values with different leading axis sizes: 3, 4; the carry must ke",
            {"sizes": "3, 4"},
        ),
        ("scan got values with different leading axis sizes: 3,", {"sizes": "3,"}),
        ("Shapes must be 1D sequences of concrete values of integer ty", {}),
        ("Shapes must be 1D sequences of concrete values of integer type...", {}),
    ],
)
def test_message_cut_short_names_its_error_by_its_beginning(
    message: str, fields: dict[str, str]
) -> None:
    exception = "ValueError" if message.startswith("scan") else "TypeError"
    found = MATCHER.match(exception, message)
    assert found is not None and found.entry.id == ("scan" if fields else "shape")
    assert found.cut and found.score < 100
    assert found.fields == fields


@pytest.mark.parametrize(
    ("exception", "message"),
    [
        ("TypeError", "Shapes must be 1D"),  # too little of it to tell
        ("ValueError", "Shapes must be 1D sequences of concrete values of integer type"),  # class
        ("TypeError", "Shapes must be 1D sequences of concrete values, and more besides this"),
    ],
)
def test_cut_matching_needs_enough_text_the_class_and_no_divergence(
    exception: str, message: str
) -> None:
    found = MATCHER.match(exception, message)
    assert found is None or not found.cut


@pytest.mark.parametrize(
    ("message", "whole"),
    [
        # The full stop after a value that closes its bracket was left out: a whole message
        # (flax#1464 printed `got PyTreeDef(xxxxxxx)\nand PyTreeDef(xxxxxxxx)`).
        ("true_fun output must have same type structure, got PyTreeDef(*) and PyTreeDef(*)", True),
        ("true_fun output must have same type structure, got PyTreeDef(*) and PyTreeDef(*).", True),
        # A value stopping anywhere else may be cut short: read as a cut, not as whole.
        (
            "true_fun output must have same type structure, got PyTreeDef(*) and PyTreeDef((*, ",
            False,
        ),
    ],
)
def test_final_full_stop_after_a_closed_value(message: str, whole: bool) -> None:
    matcher = Matcher(
        Catalog.of(
            [
                entry(
                    "tree",
                    "TypeError",
                    "{what} must have same type structure, got {tree1} and {tree2}.",
                )
            ]
        )
    )
    found = matcher.match("TypeError", message)
    if whole:
        assert found is not None and found.entry.id == "tree"
        assert found.score == 100 and not found.cut
    else:
        assert found is None or found.cut


def test_message_without_class_cut_short_names_its_error() -> None:
    """A message pasted without its class and cut (an excerpt, a wrapped line not copied)
    begins one template far enough to tell (jax#39058's paste of the Pallas block-shape rule)."""
    from jaxerr_ls.catalog.loose import match_any_class

    found = match_any_class(
        MATCHER, "Shapes must be 1D sequences of concrete values of integer\n   ty"
    )
    assert found is not None and found.entry.id == "shape" and found.cut
    assert match_any_class(MATCHER, "Shapes must be 1D sequences") is None


def test_a_short_cut_with_its_class_names_the_one_entry_it_begins() -> None:
    """Shorter than a line, a cut printed with its class names its entry when no other entry's
    template reads as far (Flax's setup-names error cut at "via", flax#765); without its class a
    phrase that short names nothing."""
    from jaxerr_ls.catalog.loose import match_any_class

    matcher = Matcher(load_catalog())
    found = matcher.match("ValueError", "In setup, assign names of Modules via")
    assert found is not None and found.cut and found.entry.library == "flax"
    assert "assign names of Modules" in found.entry.message
    assert not found.shared
    assert match_any_class(matcher, "In setup, assign names of Modules via") is None


def test_a_cut_at_the_first_sentence_s_value_needs_fewer_words() -> None:
    """jax#18851's title quotes shard_map's `No replication rule for erf_inv`: four words and the
    value that ends the message's first sentence. That names the entry; the same words with a
    value where the template goes on mid-sentence (`cannot import name 'x'`, whose message goes
    on ` from ...`) do not, nor does a value cut before the opening is whole."""
    matcher = Matcher(load_catalog())
    found = matcher.match("NotImplementedError", "No replication rule for erf_inv")
    assert found is not None and found.cut
    assert found.entry.message.startswith("No replication rule for {prim}.")
    assert matcher.match("NotImplementedError", "No replication rule") is None
    assert matcher.match("ValueError", "No replication rule for erf_inv") is None
    imported = matcher.match("ImportError", "cannot import name 'datasets'")
    assert imported is None or not imported.cut


def test_a_cut_message_jaxlib_s_cpp_raises_as_a_python_class() -> None:
    """IDQL#4's title quotes jaxlib's pytree error up to its first value, under the ValueError
    jaxlib's C++ raises it as: `Custom node type mismatch: expected type: <class '...'>`. The cut
    reads jaxlib's wording, for that class only."""
    matcher = Matcher(load_catalog())
    text = "Custom node type mismatch: expected type: <class 'flax.core.frozen_dict.FrozenDict'>"
    found = matcher.match("ValueError", text)
    assert found is not None and found.cut and found.entry.library == "xla"
    assert found.entry.message.startswith("Custom node type mismatch: expected type: {")
    assert matcher.match("TypeError", text) is None


def test_a_short_cut_several_entries_begin_names_their_most_common_and_says_so() -> None:
    """dynamiqs#1015's `ValueError: Non-hashable static arguments`: curated entries (an array,
    a container, an object) and JAX's and jaxlib's own wordings all begin so, all ValueErrors.
    The most common curated one answers, and the explanation says how many share the words;
    printed with another class, the words name nothing."""
    matcher = Matcher(load_catalog())
    found = matcher.match("ValueError", "Non-hashable static arguments")
    assert found is not None and found.cut and found.entry.curated
    sharing = [
        e
        for e in matcher.catalog.entries
        if any(
            m.startswith("Non-hashable static arguments")
            for m in (e.message, *(w.message for w in e.wordings))
        )
    ]
    assert found.shared > 1 and found.shared <= len(sharing)
    curated = [e for e in sharing if e.curated]
    assert found.entry.frequency == max(e.frequency for e in curated)
    words = identified_words(found, "ValueError", message="Non-hashable static arguments")
    assert f"begins the wording of {found.shared} errors of this class" in words
    assert matcher.match("TypeError", "Non-hashable static arguments") is None
