"""Errors of library releases older than the sample first read: the index now names them.

Each message is the raise statement's text in the wheel of the release named (read with
`jaxerr-ls catalog extract --library ...`), its placeholder filled as the release prints it; no
public paste of these was found. Before the releases of every minor series were read, Orbax's
reached a different error's entry (`{dep} not found.`) and the others none.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from jaxerr_ls.catalog import Catalog, Matcher, load_catalog
from jaxerr_ls.catalog.libraries import release_label
from jaxerr_ls.explain import explain_text


@dataclass(frozen=True)
class Old:
    source: str  # the release's wheel, file and line of the raise
    text: str
    entry: str
    label: str  # the releases the explanation names


OLD = [
    Old(
        "equinox-0.9.2 equinox/experimental/stateful.py:355 (eqx.experimental.get_state)",
        "RuntimeError: Cannot get state before it has been set\n",
        "equinox-c68c8519",
        "Equinox 0.4.0–0.10.2",  # every release read (stop 35): 0.5.6–0.9.2 in the sample
    ),
    Old(
        "flax-0.2.2 flax/linen/module.py:148 (later 'Can't call compact methods on unbound modules')",
        "ValueError: Can't call methods on orphaned modules\n",
        "flax-a98997b5",
        "Flax 0.2.1–0.3.2",  # 0.2.2–0.3.2 in the sample
    ),
    Old(
        "orbax-0.0.23 (the package before orbax-checkpoint) orbax/checkpoint/checkpoint_manager.py:424",
        'ValueError: Checkpointer for item "state" not found\n',
        "orbax-38bc6c67",
        "Orbax 0.0.23–0.4.8",
    ),
    Old(
        "optax-0.0.91 optax/_src/privacy.py:67 (differentially_private_aggregate)",
        "ValueError: Unlike other transforms, `differentially_private_aggregate` expects `updates`"
        " to have a batch dimension in the 0th axis. That is, this function expects per-example"
        " gradients as input.\n",
        "optax-a2564678",
        "Optax 0.0.5–0.1.2",  # 0.0.9–0.0.91 in the sample
    ),
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.mark.parametrize("old", OLD, ids=lambda o: o.source.split()[0])
def test_an_older_release_error_is_named(catalog: Catalog, old: Old) -> None:
    (explained,) = explain_text(old.text, Matcher(catalog))
    assert explained.match is not None, f"{old.source}: no entry"
    entry = explained.match.entry
    assert entry.id == old.entry
    assert release_label(entry) == old.label
