"""Words quoted from inside a message, without its class, its beginning or its end (issue 18):
the one entry whose wording holds them, said as such; none when several hold them or when the
words are too few to tell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog.loose import match_any_class
from jaxerr_ls.shells.cli.main import main


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(load_catalog())


def test_words_from_inside_one_wording_name_its_entry(matcher: Matcher) -> None:
    [entry] = [e for e in matcher.catalog.entries if e.id == "gpu-not-found-falling-back-to-cpu"]
    assert entry.message.startswith("An NVIDIA GPU may be present on this machine, but ")
    found = match_any_class(matcher, "a CUDA-enabled jaxlib is not installed. Falling back")
    assert found is not None and found.entry.id == entry.id
    assert found.inside and found.cut


def test_words_through_a_value_are_read_on(matcher: Matcher) -> None:
    """The words after a value of the wording are read on, the value taken as printed."""
    [entry] = [e for e in matcher.catalog.entries if e.id == "tpu-already-in-use"]
    head, tail = entry.message.split("{pid}")
    assert head.endswith("already in use by process with pid ")
    found = match_any_class(matcher, "already in use by process with pid 4242" + tail)
    assert found is not None and found.entry.id == entry.id and found.inside
    assert found.fields == {"pid": "4242"}


def test_too_few_or_shared_words_name_nothing(matcher: Matcher) -> None:
    # 29 characters: a phrase that short may be any program's.
    assert matcher.match_inside("jaxlib is not installed. Fall") is None
    # In the wording of several static-argument entries.
    assert matcher.match_inside("static arguments are not supported. An error occurred") is None


def test_the_explanation_says_how_it_was_identified(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pasted = tmp_path / "quoted.txt"
    pasted.write_text("CUDA-enabled jaxlib is not installed. Falling back to cpu.\n")
    assert main(["explain", str(pasted), "--json"]) == 0
    [found] = json.loads(capsys.readouterr().out)["tracebacks"]
    assert found["entry"]["id"] == "gpu-not-found-falling-back-to-cpu"
    assert found["entry"]["identified_by"] == "message"
    assert main(["explain", str(pasted)]) == 0
    assert "words quoted from inside its message" in capsys.readouterr().out
