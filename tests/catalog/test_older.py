"""Releases before the main index (0.1-0.4.25): users' pastes of their wordings reach the entry,
the explanation states the older releases, and nothing of it is read when the catalog loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog import older as older_module
from jaxerr_ls.catalog.model import Catalog
from jaxerr_ls.explain import explain_text
from jaxerr_ls.render.terminal import render_explanation

PASTES = Path(__file__).resolve().parent / "older"
# Paste (tests/catalog/older/SOURCES.md has each thread's URL) -> the entry it is.
EXPECTED = {
    "dm-haiku-235.txt": "tracer-array-conversion",
    "jax-5853.txt": "tracer-integer-conversion",
    "jax-7545.txt": "tracer-array-conversion",
    "numpyro-771.txt": "concretization-traced-value",
    "scenic-709.txt": "concretization-traced-value",
}
CATALOG = load_catalog(cache_dir=None)


@pytest.mark.parametrize(("paste", "entry_id"), sorted(EXPECTED.items()))
def test_older_wording_reaches_its_entry(paste: str, entry_id: str) -> None:
    text = (PASTES / paste).read_text(encoding="utf-8")
    (found,) = explain_text(text, Matcher(CATALOG))
    assert found.match is not None and found.match.entry.id == entry_id
    assert found.match.score == 100


def test_without_the_older_releases_the_tracer_paste_matches_no_message() -> None:
    # The same entries built in code have no older file beside them: at best the class alone
    # names the entry, less surely.
    bare = Catalog.of(CATALOG.entries, CATALOG.jax_version)
    text = (PASTES / "dm-haiku-235.txt").read_text(encoding="utf-8")
    (found,) = explain_text(text, Matcher(bare))
    assert found.match is None or found.match.score < 100


def test_the_explanation_names_the_older_releases() -> None:
    text = (PASTES / "dm-haiku-235.txt").read_text(encoding="utf-8")
    (found,) = explain_text(text, Matcher(CATALOG))
    said = "\n".join(render_explanation(found))
    assert "0.2.10–0.4.25" in said  # the releases that printed "the JAX Tracer object"


def test_the_older_file_is_read_only_when_a_message_needs_it() -> None:
    older_module._loaded.clear()
    catalog = load_catalog(cache_dir=None)
    matcher = Matcher(catalog)
    assert matcher.match(
        "TracerBoolConversionError",
        "Attempted boolean conversion of traced array with shape bool[].",
    )
    assert older_module.loaded_older(catalog) is None
    text = (PASTES / "jax-7545.txt").read_text(encoding="utf-8")
    explain_text(text, matcher)
    assert older_module.loaded_older(catalog) is not None


def test_an_error_only_older_releases_raise_is_an_entry_with_its_releases() -> None:
    older = older_module.load_older(CATALOG)
    assert older is not None and older.releases[0] == "0.1"
    found = [e for e in older.entries if e.versions and e.versions[-1] in older.releases]
    assert len(found) > 500
    assert all(set(e.versions) <= set(older.releases) for e in found)


def test_jax_0_1_exception_wording_reaches_the_tracer_entry() -> None:
    # jax#3654 (JAX 0.1.70: `Exception: The numpy.ndarray conversion method __array__() was
    # called on the JAX Tracer object Traced<...>`), kept verbatim in the field corpus.
    field = PASTES.parents[1] / "field" / "pastes" / "024-jax-3654-one-hot-exception.txt"
    found = explain_text(field.read_text(encoding="utf-8"), Matcher(CATALOG))[-1]
    assert found.match is not None and found.match.entry.id == "tracer-array-conversion"
    assert found.match.score == 100


def test_every_release_of_the_window_is_read() -> None:
    # All 154 releases PyPI has of 0.1-0.4.25, not a sample: a wording printed only between two
    # releases of the old sample (31 of them) reaches its entry too.
    older = older_module.load_older(CATALOG)
    assert older is not None and len(older.releases) == 154
    assert older.releases[0] == "0.1" and older.releases[-1] == "0.4.25"
    assert {"0.1.21", "0.2.6", "0.4.2"} <= set(older.releases)


@pytest.mark.parametrize(
    ("exception", "message", "releases"),
    [
        # lax.reduce's check in 0.2.6-0.2.9 only ("reduce found non-scalar initial value" after).
        ("ValueError", "Found non-scalar init_value: [(3,)]", "0.2.6–0.2.9"),
        # pjit's kwargs check in 0.4.2-0.4.3 only (`in_shardings` after).
        ("ValueError", "pjit does not support kwargs when in_axis_resources is specified.", None),
    ],
)
def test_a_wording_only_unsampled_releases_printed_reaches_its_entry(
    exception: str, message: str, releases: str | None
) -> None:
    found = Matcher(CATALOG).match(exception, message)
    assert found is not None and found.score == 100
    older = older_module.load_older(CATALOG)
    assert older is not None
    wording = next(w for w in older.extend(found.entry).wordings if w.message[:20] == message[:20])
    assert wording.versions and set(wording.versions) <= set(older.releases)
    if releases is not None:
        first, last = releases.split("–")
        assert (wording.versions[0], wording.versions[-1]) == (first, last)


def test_scan_carry_check_of_0_1_42_is_the_carry_entry() -> None:
    # Read in 0.1.42-0.1.48's sdists: scan's carry type check. The raise-site join gives it to the
    # check 0.1.49 raised at that line (a body whose output is not a pair); the curated pattern
    # names the error it is.
    message = (
        "scan carry output type must match carry input type, got (ShapedArray(float32[3]),) "
        "and (ShapedArray(float32[]),)."
    )
    found = Matcher(CATALOG).match("TypeError", message)
    assert found is not None and found.entry.id == "scan-carry-type-mismatch"


def test_an_error_a_helper_function_builds_reaches_its_entry() -> None:
    # jax2tf of 0.2-0.4 raised `_xla_path_disabled_error("conv_general_dilated")`, a function
    # returning `NotImplementedError(f"Call to {primitive_name} ...")`: its callers print that.
    text = (PASTES / "jax-6763.txt").read_text(encoding="utf-8")
    (found,) = explain_text(text, Matcher(CATALOG))
    assert found.match is not None and found.match.score == 100
    entry = found.match.entry
    assert entry.exception == "NotImplementedError"
    assert entry.message.startswith("Call to {primitive_name} can only be converted through TFXLA")
    assert found.match.fields == {"primitive_name": "conv_general_dilated"}


def test_an_older_wording_of_a_jax_class_joins_the_entry_of_its_first_sentence() -> None:
    # jax#5477 (JAX 0.2.x): "UnexpectedTracerError: Encountered an unexpected tracer. Perhaps
    # this tracer escaped through global state ...", kept verbatim in the field corpus. Two
    # curated entries have the class; the one whose first sentence it is explains it.
    field = PASTES.parents[1] / "field" / "pastes" / "159-jax-5477-escaped-tracer-omnistaging.txt"
    found = explain_text(field.read_text(encoding="utf-8"), Matcher(CATALOG))[-1]
    assert found.match is not None and found.match.entry.id == "unexpected-tracer-leak"
    assert found.match.score == 100
