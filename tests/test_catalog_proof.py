"""Truth: every curated example raises its entry's error under real JAX and its fix runs clean."""

from __future__ import annotations

import importlib.util

import pytest

from jaxerr_ls.catalog import Entry, Matcher, load_catalog
from tests.proof.prove import Proof, prove

CATALOG = load_catalog()
CURATED = [entry for entry in CATALOG.curated if entry.example is not None]

pytestmark = pytest.mark.jax


@pytest.fixture(scope="session")
def proofs() -> dict[str, Proof]:
    pytest.importorskip("jax", reason="the proof needs JAX installed (scripts/bootstrap does it)")
    return {proof.entry.id: proof for proof in prove(CURATED)}


UNPROVABLE = [entry for entry in CATALOG.curated if entry.example is None]


def test_every_curated_entry_has_an_example_or_says_why_not() -> None:
    missing = [entry.id for entry in UNPROVABLE if not entry.proof_skip]
    assert missing == []


@pytest.mark.parametrize("entry", UNPROVABLE, ids=lambda entry: entry.id)
def test_entry_without_example_is_skipped_with_its_reason(entry: Entry) -> None:
    # Errors of a GPU, a TPU or a broken install: nothing a CPU runs can raise them.
    pytest.skip(entry.proof_skip)


# The import name of each library whose examples the proof runs (installed by scripts/bootstrap).
LIBRARY_MODULES = {
    "flax": "flax",
    "equinox": "equinox",
    "optax": "optax",
    "orbax": "orbax.checkpoint",
    "chex": "chex",
}


@pytest.mark.parametrize("entry", CURATED, ids=lambda entry: entry.id)
def test_example_proves_entry(entry: Entry, proofs: dict[str, Proof]) -> None:
    module = LIBRARY_MODULES.get(entry.library)
    if module is not None and importlib.util.find_spec(module.split(".")[0]) is None:
        pytest.fail(f"{entry.id}'s example needs {entry.library}: run scripts/bootstrap")
    problems = proofs[entry.id].problems(Matcher(CATALOG))
    assert problems == [], "\n".join(problems)
