"""Rules the thirteenth field batch asked for once it joined the tuned corpus (measured unseen
first: 52 of 66), each on the public paste that showed the need (`tests/field/pastes/`,
verbatim, URLs in its index.json)."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from tests.field.measure_pastes import paste_text


@pytest.mark.parametrize(
    ("number", "exception", "entry"),
    [
        # pymc#7593, pymc-marketing#1427: the status carries the callback's own traceback.
        ("1328", "XlaRuntimeError", "pure-callback-result-mismatch"),
        ("1338", "XlaRuntimeError", "pure-callback-result-mismatch"),
        # jax#17638 (2023) and timesfm#42 (a markdown link inside the copied message).
        ("058", "RuntimeError", "jaxlib-newer-than-jax"),
        ("1361", "RuntimeError", "jaxlib-newer-than-jax"),
        # jax#25332: jax 0.4.36 failing while it worded the carry's differences.
        ("1275", "IndexError", "scan-carry-type-mismatch"),
        # jax#25800: the branch-by-branch wording the pull request proposed.
        ("1292", "TypeError", "cond-branch-output-mismatch"),
        # OpenTrack#3: a log on one line, ending in the shell's report in a Chinese locale.
        ("1341", "", "native-illegal-instruction"),
    ],
)
def test_thirteenth_batch_pastes(number: str, exception: str, entry: str, matcher: Matcher) -> None:
    [found] = explain_text(paste_text(number), matcher)
    assert found.traceback.exception == exception
    assert found.match is not None and found.match.entry.id == entry


def test_the_versions_the_message_names_are_stated(matcher: Matcher) -> None:
    [found] = explain_text(paste_text("1361"), matcher)
    assert found.match is not None
    assert found.match.fields == {"jaxlib_version": "0.4.28", "jax_version": "0.4.26"}


def test_a_traceback_a_status_carries_is_its_message() -> None:
    from jaxerr_ls.tracebacks import parse_tracebacks
    from jaxerr_ls.tracebacks.parse import paste_readings

    text = paste_text("1338")
    assert parse_tracebacks(text) == []  # its frames are not a traceback of their own
    first = paste_readings(text)[0]
    assert first.exception == "XlaRuntimeError"
    assert first.message.rstrip().endswith("Expected: int64, Actual: int32")
    # A traceback after an ordinary exception line stays a traceback of its own.
    other = 'ValueError: first\n  File "a.py", line 1, in <module>\n    f()\nTypeError: second\n'
    assert [tb.exception for tb in parse_tracebacks(other)] == ["TypeError"]


def test_a_warning_gives_way_only_to_a_sure_reading(matcher: Matcher) -> None:
    """A warning whose text reaches an entry of another class is still reported when nothing
    else in the paste names an entry for sure."""
    text = "/x/site.py:3: UserWarning: Illegal instruction hit while probing\n  warn()\n"
    [found] = explain_text(text, matcher)
    assert found.traceback.exception == "UserWarning"


def test_jaxlib_too_old_under_its_older_class_states_the_versions(matcher: Matcher) -> None:
    """Older releases raised it as ValueError: the entry's own pattern reads the versions then
    too (an older wording's template named them by the source's expressions, and the
    explanation printed `{jaxlib_version}`)."""
    found = matcher.match(
        "ValueError", "jaxlib is version 0.1.69, but this version of jax requires version 0.1.74."
    )
    assert found is not None and found.entry.id == "jaxlib-version-too-old"
    assert found.fields == {"jaxlib_version": "0.1.69", "minimum": "0.1.74"}


def test_a_field_not_read_is_not_printed_as_a_placeholder(matcher: Matcher) -> None:
    """An entry found by its raise site (jax#1024's `KeyError: fft`) or a cut message reads no
    field: its prose says `…` there, not `{primitive}`; braces in code stay."""
    from jaxerr_ls.render.terminal import render_explanation

    [found] = explain_text(paste_text("1169"), matcher)
    text = "\n".join(render_explanation(found))
    assert "{primitive}" not in text and "`…` has none" in text
    [nans] = explain_text(paste_text("950"), matcher)
    assert 'jax.debug.print("{x}", x=x)' in "\n".join(render_explanation(nans))


@pytest.mark.parametrize(
    ("number", "entry"),
    [
        ("027", "leaked-tracer-check"),  # numpyro#1981: the leak checker's report (proved)
        ("977", "leaked-tracer-check"),  # dm-haiku#99: without the tracers' list
        ("553", "vmap-axis-rank-too-small"),  # jax#5201: `pmap got arg 0 of rank 0 but ...`
        ("078", "non-concrete-boolean-index"),  # numpyro#853: IndexError, 2020's wording
        ("725", "cond-branch-output-mismatch"),  # flax#1464: `true_fun and false_fun output`
        ("1291", "cond-branch-output-mismatch"),  # jax#25800: `branch 0 and 1 outputs`
        ("536", "scan-carry-type-mismatch"),  # jax#15178: `scan carry output and input`
        ("717", "resource-exhausted-out-of-memory"),  # transformers#13219: `Resource exhausted:`
        ("272", "dnn-library-initialization-failed"),  # jax#6517: `DNN library is not found`
        ("070", "static-arg-jax-array"),  # jax#5186: JAX 0.2's wording, a DeviceArray
        ("335", "jit-argument-invalid-type"),  # jax#14740: `Cannot interpret value of type`
        ("1317", "gpu-factory-already-registered"),  # ksim-gym#17: TensorFlow and JAX together
    ],
)
def test_pastes_a_generated_entry_explained_reach_a_curated_one(
    number: str, entry: str, matcher: Matcher
) -> None:
    """Each of these reached only an entry generated from a raise site or a log call (its
    message, no meaning or advice); a curated entry now says what happened and what to do."""
    found = explain_text(paste_text(number), matcher)[-1]
    assert found.match is not None and found.match.entry.id == entry
    assert found.match.entry.curated and found.match.entry.solutions
