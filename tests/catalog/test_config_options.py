"""A config option the installed JAX lacks, raised by real JAX (CPU) here: JAX's own
`Unrecognized config option: ...` (update, read) and Python's `'Config' object has no attribute
'jax_...'` (an attribute read) reach `config-option-unrecognized` with the option's name; another
project's `Config` class does not."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text

jax = pytest.importorskip("jax")

ENTRY = "config-option-unrecognized"
PASTES = Path(__file__).parents[1] / "field" / "pastes"
NAME = "jax_experimental_name_stack"  # a flag of JAX 0.3.x (ColabFold#332)

CASES: dict[str, Callable[[], object]] = {
    "update": lambda: jax.config.update(NAME, True),
    "read": lambda: jax.config._read(NAME),
    "attribute": lambda: getattr(jax.config, NAME),
}


@pytest.mark.parametrize("name", list(CASES))
def test_an_option_this_release_lacks(matcher: Matcher, name: str) -> None:
    with pytest.raises(AttributeError) as raised:
        CASES[name]()
    text = "".join(traceback.format_exception(raised.value))
    found = explain_text(text, matcher)[-1]
    assert found.match is not None and found.match.entry.id == ENTRY, text[-300:]
    assert found.match.fields.get("name") == NAME


def test_the_field_paste(matcher: Matcher) -> None:
    paste = (PASTES / "578-colabfold-332-config-name-stack.txt").read_text()
    found = explain_text(paste, matcher)[-1]
    assert found.traceback.exception == "AttributeError"
    assert found.match is not None and found.match.entry.id == ENTRY
    assert found.match.fields == {"name": NAME}


@pytest.mark.parametrize(
    "line",
    [
        "AttributeError: 'Config' object has no attribute 'define_bool_state'",
        # octo#159: the paste stops before the closing quote.
        "AttributeError: 'Config' object has no attribute 'define_bool_state",
        # jax-md#295: the flags namespace JAX 0.4.19 and before had.
        "AttributeError: 'Config' object has no attribute 'FLAGS'",
    ],
)
def test_a_library_calling_a_config_method_jax_dropped(matcher: Matcher, line: str) -> None:
    found = explain_text(line, matcher)[-1]
    assert found.match is not None and found.match.entry.id == ENTRY


@pytest.mark.parametrize(
    "line",
    [
        "AttributeError: 'Config' object has no attribute 'batch_size'",
        "AttributeError: 'Config' object has no attribute 'FLAGS_extra'",
        "AttributeError: 'LlamaConfig' object has no attribute 'jax_enable_x64'",
        "AttributeError: module 'jax.config' has no attribute 'update'",
    ],
)
def test_other_configs(matcher: Matcher, line: str) -> None:
    found = explain_text(line, matcher)[-1]
    assert found.match is None or found.match.entry.id != ENTRY
