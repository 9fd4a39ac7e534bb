"""Rules the held-out batch of field pastes (207-321) asked for, each on the public paste that
showed the need (`tests/field/pastes/`, verbatim, URLs in its index.json), with a text each rule
must leave alone."""

from __future__ import annotations

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.catalog.templates import args_message
from jaxerr_ls.explain import explain_text
from tests.field.measure_pastes import paste_text


def _entry(matcher: Matcher, name: str) -> tuple[str | None, str | None]:
    found = explain_text(paste_text(name), matcher)[-1]
    return (found.match.entry.id, found.match.by) if found.match else (None, None)


def test_jaxlib_text_of_the_printed_class_beats_jax_text_of_another(matcher: Matcher) -> None:
    """jax#10710: jaxlib's `ValueError: Mismatch custom node data: ...` (pytree.cc), not JAX's
    `Mismatch` assertion text of another class: the curated entry of pytree mismatches now reads
    jaxlib's wording (stop 34), of the printed class."""
    entry, _ = _entry(matcher, "282")
    assert entry == "tree-map-structure-mismatch"
    assert matcher.catalog.by_id[entry].exception == "ValueError"


def test_an_exception_printed_as_its_arguments_tuple(matcher: Matcher) -> None:
    """jax#29649's before: `AttributeError: (Traced<...>, "The 'sharding' attribute ...")`."""
    entry, by = _entry(matcher, "291")
    assert by == "message" and entry is not None
    assert "'sharding' attribute" in matcher.catalog.by_id[entry].message
    assert args_message("(1, 'it\\'s a\\nmessage')") == "it's a\nmessage"
    assert args_message("(1, 2)") is None and args_message("shape (3, 'a')") is None
    # jax#26931: the paste stops inside the message; a tuple closed after another value is no
    # message of this form.
    assert args_message("(Traced<f32[]>, \"The 'sharding' attribute is not") == (
        "The 'sharding' attribute is not"
    )
    assert args_message("(1, 'a', 2)") is None


def test_a_later_release_added_a_clause(matcher: Matcher) -> None:
    """jaxDecomp#135: hijax's message with `, or derive them from its jvp rule ...` after the
    sentence JAX 0.10.2 ends; a placeholder at a template's end still takes the whole value."""
    entry, by = _entry(matcher, "310")
    assert (entry, by) == ("jax-1369fa2e", "message")
    found = matcher.match("ValueError", "Mesh axis names cannot be None. Got: (None, 'x')")
    assert found is not None and found.fields == {"axis_names": "(None, 'x')"}
    # Not a clause: the sentence's last word goes on.
    longer = "for linearize support, subclass <class 'X'> must implement `lin` and `linearizedX`"
    found = matcher.match("NotImplementedError", longer)
    assert found is None or found.score < 100


def test_a_bare_assert_a_later_release_turned_into_a_raise(matcher: Matcher) -> None:
    """jax#18856's before: `assert devices.ndim == len(axis_names)` in `Mesh.__new__` is the
    check later releases raise as `ValueError: Mesh requires the ndim ...` (condition
    `devices.ndim != len(axis_names)`), identified by its site whatever the line."""
    entry, by = _entry(matcher, "215")
    assert by == "raise_site" and entry is not None
    assert matcher.catalog.by_id[entry].message.startswith("Mesh requires the ndim")
    other = paste_text("215").replace("devices.ndim == len(axis_names)", "devices.size > 0")
    [found] = explain_text(other, matcher)
    assert found.match is None
