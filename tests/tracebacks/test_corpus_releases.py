"""The corpus programs run under JAX 0.4.26, 0.4.38, 0.5.3, 0.6.2, 0.7.2, 0.8.2 and 0.9.1 (the
last patch of every minor before 0.10; scripts/make_corpus.py --release), in every printed form:
each output reaches the same entry and the same user line as the 0.10.2 output of the same program
and form, except the differences recorded here with their reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import explain_text
from jaxerr_ls.tracebacks.locate import Workspace

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
RELEASES = ("0.4.26", "0.4.38", "0.5.3", "0.6.2", "0.7.2", "0.8.2", "0.9.1")
# program -> (releases, why the entry differs there); the user line must still be the same.
DIFFERENT_ENTRY = {
    # One CPU device: releases before 0.8 refuse the pmap for its device count before 0.10.2's
    # squeeze of the mapped axis fails; another error, rightly another entry.
    "pmap_squeeze": (
        ("0.4.26", "0.4.38", "0.5.3", "0.6.2", "0.7.2"),
        "older releases check the device count first",
    ),
    # 0.4.x and 0.5.x still said "unbound axis name: y" where 0.10.2 fails a bare assert (0.6.x
    # and 0.7.x a KeyError): better there.
    "shard_map_wrong_axis": (
        ("0.4.26", "0.4.38", "0.5.3"),
        "0.4.x and 0.5.x have a message, 0.10.2 a bare assert",
    ),
    # 0.4.26 fails in lowering: its first line alone ("Cannot lower jaxpr with verifier errors:")
    # does not say which; the whole message reaches the entry.
    "lax_add_dtypes": (("0.4.26",), "the first line alone names only the lowering failure"),
}
CASES = [
    (release, path)
    for release in RELEASES
    for path in sorted((CORPUS / f"out-{release}").glob("*.txt"))
    if (CORPUS / "out" / path.name).exists()
]


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(load_catalog())


def _result(path: Path, matcher: Matcher) -> tuple[str | None, tuple[str, int] | None]:
    explained = explain_text(
        path.read_text(encoding="utf-8"), matcher, workspace=Workspace(CORPUS / "programs")
    )
    if not explained:  # a message alone that reaches no entry is not reported
        return None, None
    last = explained[-1]
    where = (Path(last.location.path).name, last.location.line) if last.location else None
    return (last.match.entry.id if last.match else None), where


def test_every_release_has_its_corpus_and_manifest() -> None:
    for release in RELEASES:
        manifest = json.loads((CORPUS / f"manifest-{release}.json").read_text(encoding="utf-8"))
        assert manifest["jax"] == release
        assert len(list((CORPUS / f"out-{release}").glob("*.txt"))) >= 500
        # What each program printed there (a program failing differently shows it here).
        assert set(manifest["printed"]) == set(manifest["programs"])


@pytest.mark.parametrize(("release", "path"), CASES, ids=[f"{r}/{p.name}" for r, p in CASES])
def test_same_entry_and_line_as_newest(release: str, path: Path, matcher: Matcher) -> None:
    entry, where = _result(path, matcher)
    newest_entry, newest_where = _result(CORPUS / "out" / path.name, matcher)
    program, form = path.name.split(".")[:2]
    if form in ("last_line", "message") and where is None:
        pass  # no frame in the text; 0.10.2's message may name one ("... at file.py:8")
    else:
        assert where == newest_where
    releases, _why = DIFFERENT_ENTRY.get(program, ((), ""))
    if release in releases:
        # Some entry; the first line alone of a reworded message may say too little for one.
        assert entry is not None or form in ("last_line", "message")
    else:
        assert entry == newest_entry
