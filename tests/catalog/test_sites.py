"""Identified by where JAX raised it: real unfiltered tracebacks whose message says nothing (a
bare `AssertionError`, a `KeyError`) reach their entry by the last JAX frame."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.catalog.sites import LINE_WINDOW, jax_file, match_raise_site
from jaxerr_ls.explain import explain_text
from jaxerr_ls.tracebacks import parse_tracebacks

TESTS = Path(__file__).resolve().parent.parent
RELEASES = TESTS / "catalog" / "releases"
CORPUS = TESTS / "corpus"


@pytest.mark.parametrize("release", ["0.4.26", "0.4.38", "0.6.2"])
def test_bare_assertion_of_a_curated_example(release: str, matcher: Matcher) -> None:
    """ref-store-ref-into-ref's example, before JAX had its message: `assert` in
    _swap_abstract_eval (JAX_TRACEBACK_FILTERING=off, captured by scripts/capture_examples.py)."""
    text = (RELEASES / release / "ref-store-ref-into-ref.off.txt").read_text(encoding="utf-8")
    [found] = explain_text(text, matcher)
    assert (found.traceback.exception, found.traceback.message) == ("AssertionError", "")
    assert found.match is not None and found.match.entry.id == "ref-store-ref-into-ref"
    assert found.match.score < 100  # said less surely than a message match
    assert found.location is not None and found.location.line == 8  # the user's store


@pytest.mark.parametrize(
    ("folder", "exception"),
    [
        ("out", "AssertionError"),
        ("out-0.8.2", "AssertionError"),
        ("out-0.6.2", "KeyError"),
        ("out-0.4.38", "NameError"),
    ],
)
def test_same_mistake_four_releases(folder: str, exception: str, matcher: Matcher) -> None:
    """A psum over an axis the mesh lacks: 0.10.2 and 0.8.2 fail an assert (245 lines apart),
    0.6.2 a KeyError, 0.4.38 says "unbound axis name" — one entry for all, from the unfiltered
    tracebacks."""
    text = (CORPUS / folder / "shard_map_wrong_axis.unfiltered.txt").read_text(encoding="utf-8")
    found = explain_text(text, matcher)[-1]
    assert found.traceback.exception.rsplit(".", 1)[-1] == exception
    assert found.match is not None and found.match.entry.id == "unbound-axis-name"
    assert found.location is not None and found.location.line == 14


def test_filtered_traceback_names_no_site(matcher: Matcher) -> None:
    text = (CORPUS / "out" / "shard_map_wrong_axis.plain.txt").read_text(encoding="utf-8")
    found = explain_text(text, matcher)[-1]
    assert not any(jax_file(f.path) for f in found.traceback.frames) and found.match is None


def test_site_needs_the_same_function_and_a_near_line(matcher: Matcher) -> None:
    text = (CORPUS / "out" / "shard_map_wrong_axis.unfiltered.txt").read_text(encoding="utf-8")
    tb = parse_tracebacks(text)[-1]
    last = tb.frames[-1]
    assert jax_file(last.path) == "jax/_src/core.py" and last.function == "pvary"
    moved = replace(last, line=last.line + LINE_WINDOW + 1)
    assert match_raise_site(matcher, tb.exception, (*tb.frames[:-1], moved)) is None
    drifted = replace(last, line=last.line + LINE_WINDOW)  # another release, a few lines off
    assert match_raise_site(matcher, tb.exception, (*tb.frames[:-1], drifted)) is not None
    renamed = replace(last, function="other")
    assert match_raise_site(matcher, tb.exception, (*tb.frames[:-1], renamed)) is None


def test_a_call_that_failed_below_is_not_a_raise_site(matcher: Matcher) -> None:
    """IPython shows pxla's ExecuteReplicated.__call__ calling the executable when a callback
    failed: a site many errors pass through, not where this one was raised."""
    text = (CORPUS / "out" / "pure_callback_raises.ipython.txt").read_text(encoding="utf-8")
    tb = parse_tracebacks(text)[-1]
    assert tb.frames[-1].function == "ExecuteReplicated.__call__"
    assert match_raise_site(matcher, tb.exception, tb.frames) is None


def test_jax_file_paths() -> None:
    assert jax_file("/v/lib/python3.11/site-packages/jax/_src/core.py") == "jax/_src/core.py"
    assert jax_file("C:\\\\venv\\\\Lib\\\\site-packages\\\\jax\\\\_src\\\\core.py") == (
        "jax/_src/core.py"
    )
    assert jax_file("/home/u/proj/train.py") is None


# Python's own wording raised by a library's statement (`python_errors`): the place names it.
_SEQUENTIAL = """Traceback (most recent call last):
  File "/home/u/train.py", line 9, in <module>
    y = model(x)
  File "{path}", line 124, in __call__
    x = layer(x, key=key)
TypeError: {message}
"""
_SITE_PACKAGES = "/venv/lib/python3.12/site-packages/equinox/nn/_sequential.py"


@pytest.mark.parametrize(
    "path",
    [
        _SITE_PACKAGES,
        "/venv/lib/python3.9/site-packages/equinox/nn/composed.py",  # before the file's rename
        "/home/u/src/equinox/equinox/nn/_sequential.py",  # a source checkout
    ],
)
def test_python_worded_error_at_a_library_statement(path: str, matcher: Matcher) -> None:
    message = "log_sigmoid() got an unexpected keyword argument 'key'"
    [found] = explain_text(_SEQUENTIAL.format(path=path, message=message), matcher)
    assert found.match is not None
    assert found.match.entry.id == "equinox-sequential-layer-without-key"
    assert found.match.by == "raise_site" and found.match.score < 100


@pytest.mark.parametrize(
    ("path", "message"),
    [
        # the same words raised in the user's own code: Python's wording names no library
        ("/home/u/train.py", "log_sigmoid() got an unexpected keyword argument 'key'"),
        # another error of Python's at the same statement
        (_SITE_PACKAGES, "unsupported operand type(s) for +: 'int' and 'str'"),
        # a user's file that is not the library's
        ("/home/u/my_sequential.py", "log_sigmoid() got an unexpected keyword argument 'key'"),
    ],
)
def test_python_wording_needs_the_library_place(path: str, message: str, matcher: Matcher) -> None:
    [found] = explain_text(_SEQUENTIAL.format(path=path, message=message), matcher)
    assert found.match is None or found.match.entry.id != "equinox-sequential-layer-without-key"


def test_python_worded_message_alone_names_nothing(matcher: Matcher) -> None:
    """`python_worded`: the entry's message is Python's text; without the frame it is no fact."""
    [found] = explain_text("TypeError: relu() got an unexpected keyword argument 'key'\n", matcher)
    assert found.match is None
