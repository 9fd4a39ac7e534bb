"""The parameter history: read from JAX's sources (never imported), it tells a keyword a JAX
release dropped or added from one no release had, and only for calls shown to be JAX's."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import explain_text
from jaxerr_ls.tracebacks import parse_tracebacks
from jaxerr_ls.upgrades.keywords import keyword_match, load_parameter_history
from jaxerr_ls.upgrades.parameters import (
    Signature,
    build_parameter_history,
    release_signatures,
)
from tests.field.measure_pastes import paste_text

MATCHER = Matcher(load_catalog())

# One release's sources, as the extractor reads them (file -> text).
_SOURCES = {
    "jax/__init__.py": (
        "from jax._src.api import jit as jit\n"
        "from jax._src.api import _private\n"
        "from jax.core import *\n"
    ),
    "jax/_src/api.py": (
        "def jit(fun, /, *, static_argnums=None, backend=None):\n    pass\n"
        "jit = api_boundary(jit)\n"
        "def grad(fun, argnums=0, **kwargs):\n    pass\n"
        "helper = make_helper()\n"
    ),
    "jax/core.py": (
        "class ShapedArray:\n    def __init__(self, shape, dtype, weak_type=False):\n        pass\n"
        "from jax._src.api import grad\n"
    ),
}


def test_the_extractor_follows_reexports_to_the_definition() -> None:
    found = release_signatures(_SOURCES)
    # Positional-only parameters are no keywords; a wrapper re-binding the name keeps them.
    assert found["jax.jit"] == Signature(("static_argnums", "backend"), False)
    # A class is called through its `__init__` (without `self`); star imports count.
    assert found["jax.core.ShapedArray"] == Signature(("shape", "dtype", "weak_type"), False)
    assert found["jax.ShapedArray"] == found["jax.core.ShapedArray"]
    assert found["jax.core.grad"] == Signature(("fun", "argnums"), True)
    assert not any(name.endswith(("_private", "helper")) for name in found)


def test_the_history_keeps_each_keywords_releases() -> None:
    def jit(*keywords: str) -> dict[str, Signature]:
        return {"jax.jit": Signature(keywords, False)}

    history = build_parameter_history(
        {"0.4.1": jit("fun", "backend"), "0.4.2": jit("fun"), "0.4.10": jit("fun", "inline")}
    )
    assert history["releases"] == ["0.4.1", "0.4.2", "0.4.10"]
    # The function's releases, its **kwargs' ("-": never), then each keyword's ("": the same).
    assert history["functions"] == {"jax.jit": "0.4.1-|-|backend=0.4.1-0.4.1|fun=|inline=0.4.10-"}


def test_the_shipped_history_reaches_back_to_the_first_release() -> None:
    history = load_parameter_history()
    assert history.releases[0] == "0.1" and len(history.releases) > 180
    removed = history.facts("jax.numpy.clip", "a_min", "0.10.2")
    assert removed is not None and removed.status == "removed"
    assert removed.changed_in == "0.10.0" and removed.parameters == ("max", "min")
    typo = history.facts("jax.jit", "donate_args", None)
    assert typo is not None and typo.status == "never"
    assert typo.close[0] == "donate_argnums"
    # The release given takes the keyword: nothing to explain there.
    assert history.facts("jax.jit", "donate_argnums", "0.4.26") is None


def _raised_at(line: str, message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 9, in <module>\n'
        f"    {line}\n"
        f"TypeError: {message}\n"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # A user's own `split` (no JAX module spelt on the raising line).
        ("parts = split(key, axis=0)", "split() got an unexpected keyword argument 'axis'"),
        # A JAX name on the line, but the keyword is another function's.
        (
            "y = my_clip(jnp.ones(3), a_min=0)",
            "my_clip() got an unexpected keyword argument 'a_min'",
        ),
    ],
)
def test_a_function_not_shown_to_be_jaxs_is_left_alone(line: str, message: str) -> None:
    [traceback] = parse_tracebacks(_raised_at(line, message))
    found = keyword_match(
        traceback.exception, traceback.message, traceback.frames, MATCHER.catalog, "0.10.2"
    )
    assert found is None


def test_without_a_line_only_a_dropped_keyword_is_jaxs() -> None:
    # `split(axis=...)`: jnp.split takes axis today, so a bare message could be anyone's split.
    assert (
        keyword_match(
            "TypeError",
            "split() got an unexpected keyword argument 'axis'",
            (),
            MATCHER.catalog,
            None,
        )
        is None
    )
    # evosax#112: an old pickle's ShapedArray(named_shape=...): JAX's class took it until 0.4.33.
    [explanation] = explain_text(paste_text("1124"), MATCHER)
    assert explanation.match is not None
    assert explanation.match.entry.id == "keyword-not-in-release"
    assert explanation.match.fields["removed_in"] == "0.4.34"


def test_the_interactive_interpreters_input_is_the_frames_source() -> None:
    # jax#20212: `File "<stdin>", line 1` prints no source; the `>>>` line above is it.
    [explanation] = explain_text(paste_text("1308"), MATCHER, jax_version="0.4.25")
    assert explanation.traceback.frames[-1].source.startswith(
        "x = jax.jit(lambda x: x, donate_args=True)"
    )
    assert explanation.match is not None
    assert explanation.match.fields["status"] == "never"
    assert "did you mean `donate_argnums`" in explanation.match.entry.title


_CALLS = """from functools import partial

import jax
import jax.numpy as jnp
from mylib import clip


@partial(jax.jit, donate_args=(0,))
def step(x):
    return jnp.clip(x, a_min=0.0)


y = clip(jnp.ones(3), a_min=0.0)
if jax.__version__ < "0.4.27":
    z = jnp.clip(jnp.ones(3), a_min=0.0)
"""


def test_calls_are_checked_against_the_release_before_they_run() -> None:
    from jaxerr_ls.rules import RULES, check_source

    rule = RULES["api-history"].for_release("0.10.2")  # type: ignore[attr-defined]
    found = [f for f in check_source(_CALLS, [rule]) if f.entry == "keyword-not-in-release"]
    # partial(jax.jit, ...) passes its keywords to jax.jit; a library's own `clip` is not JAX's;
    # a call under a version test is code written for several releases.
    assert [(f.line, f.fields["keyword"], f.fields["status"]) for f in found] == [
        (7, "donate_args", "never"),
        (9, "a_min", "removed"),
    ]
    assert (
        found[1].message == "TypeError: `a_min` is no parameter of jax.numpy.clip since JAX 0.10.0."
    )
    older = RULES["api-history"].for_release("0.4.26")  # type: ignore[attr-defined]
    on_older = [f for f in check_source(_CALLS, [older]) if f.entry == "keyword-not-in-release"]
    assert [f.fields["keyword"] for f in on_older] == ["donate_args"]
