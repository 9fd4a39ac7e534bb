"""Precision and recall of the predictive rules on real code.

- Real JAX libraries from the package index (pinned; `tests/library_code.py`): correct code must
  stay quiet. Every finding is printed; each one seen so far was reviewed by hand.
- The curated entries' fixed (`after`) examples run clean under JAX: no finding. Their `before`
  examples: each rule predicts every entry it names, on the line of the example.
- The corpus of failing programs (tests/corpus/programs): recall by rule, printed.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Catalog, load_catalog
from jaxerr_ls.rules import RULES, Rule, check_source, rules_for
from jaxerr_ls.shells.cli.check import check_file

from .library_code import LIBRARIES, required_library_files

CORPUS = Path(__file__).resolve().parent / "corpus"
# False alarms allowed per library (reviewed findings); the goal is zero.
MAX_FALSE_ALARMS = 2


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_real_libraries_stay_quiet(name: str) -> None:
    files = required_library_files(name)
    lines = 0
    findings = []
    unparsed = []
    for path in files:
        checked = check_file(str(path))
        lines += len(path.read_text(encoding="utf-8", errors="replace").splitlines())
        findings += [(checked.path, f) for f in checked.findings]
        if checked.problem:
            unparsed.append(f"{checked.path}: {checked.problem}")
    print(
        f"\n{name} {LIBRARIES[name]}: {len(files)} files, {lines} lines, {len(findings)} findings"
    )
    for path, finding in findings:
        print(f"  {path}:{finding.line + 1}: {finding.entry} {finding.message}")
    assert len(files) > 20 and lines > 10_000
    assert not unparsed, unparsed
    assert len(findings) <= MAX_FALSE_ALARMS


def _examples(catalog: Catalog) -> list[tuple[str, str, str]]:
    out = []
    for entry in catalog.curated:
        example = entry.example
        if example is not None:
            out.append((entry.id, example.before, example.after))
    return out


def _rules(catalog: Catalog, entry_id: str) -> tuple[Rule, ...]:
    """The rules as they check the release an example is about (`example.jax`)."""
    entry = catalog.get(entry_id)
    release = entry.example.jax if entry is not None and entry.example is not None else ""
    return rules_for(release or None)


def test_fixed_examples_are_quiet(catalog: Catalog) -> None:
    noisy = {
        entry_id: [(f.line + 1, f.entry) for f in check_source(after, _rules(catalog, entry_id))]
        for entry_id, _, after in _examples(catalog)
        if after
    }
    assert {k: v for k, v in noisy.items() if v} == {}
    assert len(noisy) > 50


def test_each_rule_predicts_the_examples_of_its_entries(catalog: Catalog) -> None:
    before = {entry_id: text for entry_id, text, _ in _examples(catalog)}
    missed = []
    for rule in RULES.values():
        for entry_id in rule.entries:
            found = {f.entry for f in check_source(before[entry_id], _rules(catalog, entry_id))}
            if entry_id not in found:
                missed.append((rule.id, entry_id))
    assert missed == []


def corpus_recall() -> tuple[Counter[str], Counter[str], list[str]]:
    """(hits by rule, programs by expected entry, lines of report) over the failing programs."""
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    hits: Counter[str] = Counter()
    expected: Counter[str] = Counter()
    report = []
    for name, program in sorted(manifest["programs"].items()):
        source = (CORPUS / "programs" / program["file"]).read_text()
        entry = program.get("entry") or program.get("exception", "?")
        expected[entry] += 1
        on_line = [
            f
            for f in check_source(source)
            if f.line + 1 == program["line"] and (program.get("entry") in (None, f.entry))
        ]
        if on_line:
            hits[on_line[0].rule] += 1
        mark = on_line[0].rule if on_line else "-"
        report.append(f"{name:28} line {program['line']:3} {entry:40} {mark}")
    return hits, expected, report


def test_corpus_recall_by_rule() -> None:
    hits, expected, report = corpus_recall()
    total = sum(expected.values())
    print(f"\ncorpus: {sum(hits.values())}/{total} failing programs predicted on their line")
    for rule, count in sorted(hits.items()):
        print(f"  {rule}: {count}")
    print("\n".join(report))
    assert sum(hits.values()) >= 9
