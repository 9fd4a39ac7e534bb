"""Truth under older JAX: every curated example that JAX 0.4.26 (the oldest release we support),
0.4.38, 0.5.3, 0.6.2 and 0.8.2 can run (no `min_jax` above it) raises an error whose traceback
reaches its entry there too, and its fix runs clean.

All examples run in two interpreters of each release's venv (scripts/jax-venv; one fork per
example), with JAX_TRACEBACK_FILTERING=off so that a bare `assert` is identified by where JAX
raised it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from jaxerr_ls.catalog import Entry, Matcher, load_catalog
from jaxerr_ls.catalog.model import LIBRARIES
from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.explain import explain_text
from tests.proof.prove import Proof, prove_batch, python_for

RELEASES = ("0.4.26", "0.4.38", "0.5.3", "0.6.2", "0.8.2")
# Run once (not here: ~2 min a release): 130 of 0.9.1's 132 examples reach their entry and 127 of
# 0.7.2's 129; the other two differ as under 0.8.2 (eager-shard-map-ref's bare assert; lax.pvary
# not yet removed in 0.9.1, shard_map's in_specs not yet checked in 0.7.2).
CATALOG = load_catalog()
UPGRADE_ENTRIES = {"removed-api", "removed-module", "deprecated-api", "api-not-yet-added"}
# Examples about which file `import jax` finds: the batch runner forks interpreters that have
# imported JAX already, so the example's own `jax.py` is never imported there. They are proven
# in a fresh interpreter under the current release (tests/test_catalog_proof.py).
IMPORT_ENTRIES = {"module-shadowed-by-local-file"}


def runnable(release: str) -> list[Entry]:
    return [
        e
        for e in CATALOG.curated
        if e.example is not None
        and (not e.min_jax or version_key(e.min_jax) <= version_key(release))
        # an example written for one release is proven under that release; the upgrade entries'
        # examples use a name only some releases lack, so they are not about these releases
        and not e.example.jax
        and e.id not in UPGRADE_ENTRIES | IMPORT_ENTRIES
        # a library's examples need the library, pinned for the newest JAX only
        and e.library not in LIBRARIES
    ]


# The same program fails with another error in that release (JAX checked less, or checked
# elsewhere, then): the traceback reaches the entry of the error that release raises.
OTHER_ERROR = {
    ("0.4.26", "traced-primitive-param"): "traced-shape-not-concrete",
    ("0.4.38", "traced-primitive-param"): "traced-shape-not-concrete",
    ("0.5.3", "traced-primitive-param"): "traced-shape-not-concrete",
    ("0.6.2", "traced-primitive-param"): "traced-shape-not-concrete",
    # 0.5.x fails a returned string where it abstracts the function's outputs, with the text older
    # releases print for a string argument ("Argument '...' of type ... is not a valid JAX type"):
    # the text alone cannot tell them apart; the argument entry says to look at the return too.
    ("0.5.3", "jit-return-invalid-type"): "jit-argument-invalid-type",
    # Before 0.7, a collective outside any mapped context said "unbound axis name: x".
    ("0.6.2", "collective-unbound-axis-name"): "unbound-axis-name",
    # 0.4.26 did not check static_argnums/static_argnames against the signature: the traced
    # argument fails later, where the function uses it as a shape or an index.
    ("0.4.26", "static-argnums-out-of-range"): "traced-shape-not-concrete",
    ("0.4.26", "static-argnames-invalid"): "tracer-integer-conversion",
    # 0.4.26's Pallas interpreter loops in a while_loop whose carry the kernel's result breaks:
    # its structure check ("body_fun output and input must have same type structure") is the
    # loop-carry entry's older form.
    ("0.4.26", "pallas-kernel-returns-value"): "scan-carry-type-mismatch",
    # 0.4.26's random.split of a batch of keys reshapes instead of telling the keys are batched.
    ("0.4.26", "random-batched-keys"): "jax-062dd7ce",
    # 0.4.26 says a value "cannot be interpreted as an abstract array" without naming `self`:
    # the entry for any non-array argument.
    ("0.4.26", "jit-method-self"): "jit-argument-invalid-type",
    # 0.8.2 fails a bare assert in core.get_memory_space, a check other mistakes reach too: no
    # entry claims it.
    ("0.8.2", "eager-shard-map-ref"): None,
}
# The release does not raise the example's error at all: `before` runs clean there.
NOT_RAISED = {
    # shard_map's in_specs were not checked against the arguments' shardings before 0.9.
    ("0.6.2", "shard-map-in-specs-sharding-mismatch"),
    ("0.8.2", "shard-map-in-specs-sharding-mismatch"),
    # lax.pvary still exists in 0.8.2; the error is that later releases removed it.
    ("0.8.2", "lax-pvary-removed"),
}
CASES = [(release, entry) for release in RELEASES for entry in runnable(release)]

pytestmark = pytest.mark.jax


_PROOFS: dict[str, dict[str, Proof]] = {}


@pytest.fixture(scope="module")
def proofs() -> Callable[[str], dict[str, Proof]]:
    def of(release: str) -> dict[str, Proof]:
        if release not in _PROOFS:
            batch = prove_batch(runnable(release), python_for(release), filtering="off")
            _PROOFS[release] = {p.entry.id: p for p in batch}
        return _PROOFS[release]

    return of


def test_examples_marked_not_runnable_need_a_newer_release() -> None:
    for release in RELEASES:
        marked = [e for e in CATALOG.curated if e not in runnable(release)]
        # (an entry no CPU example proves, `proof_skip`, and a library's, are not about releases)
        need_newer = [
            e
            for e in marked
            if e.example is not None
            and e.id not in UPGRADE_ENTRIES | IMPORT_ENTRIES
            and not e.example.jax
            and e.library not in LIBRARIES
        ]
        assert len(need_newer) >= (8 if release == "0.4.26" else 0)
        assert all(version_key(e.min_jax) > version_key(release) for e in need_newer)


def test_every_other_error_is_a_runnable_example() -> None:
    ids = {(release, e.id) for release, e in CASES}
    assert set(OTHER_ERROR) <= ids
    assert set(NOT_RAISED) <= ids
    assert all(CATALOG.get(reached) for reached in OTHER_ERROR.values() if reached is not None)


@pytest.mark.parametrize(
    ("release", "entry"), CASES, ids=[f"{release}/{e.id}" for release, e in CASES]
)
def test_example_under_old_release(
    release: str, entry: Entry, proofs: Callable[[str], dict[str, Proof]]
) -> None:
    proof = proofs(release)[entry.id]
    assert proof.after.exception is None, proof.after.output[-2000:]
    if (release, entry.id) in NOT_RAISED:
        assert proof.before.exception is None, proof.before.output[-2000:]
        return
    assert proof.before.exception is not None, "`before` ran clean"
    explained = explain_text(proof.before.output, Matcher(CATALOG))
    assert explained, proof.before.output
    got = explained[-1].match.entry.id if explained[-1].match else None
    assert got == OTHER_ERROR.get((release, entry.id), entry.id), proof.before.output[-2000:]
