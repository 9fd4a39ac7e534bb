"""The incremental checker against a from-scratch check on real code: every .py file of the
pinned optax/equinox/diffrax/flax wheels (tests/library_code.py) and of any folders given, checked
both ways cold, then along an edit walk of each file (tests/rules/edit_walk.py: statements deleted
and restored, duplicated, a function jitted or called from the end, lines inserted, cut, joined),
compared at every step. Prints the counts and every disagreement; `--dump FILE` also writes the
from-scratch findings per file (JSON) to compare with another checkout's.

Usage: .venv/bin/python bench/incremental_agreement.py [--steps N] [--dump FILE] [FOLDER ...]
Exit 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from jaxerr_ls.rules import check_source, rules_for  # noqa: E402
from jaxerr_ls.rules.incremental import IncrementalChecker  # noqa: E402
from tests.library_code import LIBRARIES, library_files  # noqa: E402
from tests.rules.edit_walk import edit_walk  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--dump", type=Path)
    args = parser.parse_args()
    files = [p for name in sorted(LIBRARIES) for p in library_files(name)]
    for folder in args.folders:
        files += sorted(folder.rglob("*.py"))
    rules = rules_for(None)
    checks = findings = split = all_findings = 0
    split_s = scratch_s = 0.0
    bad: list[str] = []
    dump: dict[str, list[list[object]]] = {}
    for number, path in enumerate(files):
        text = path.read_text(errors="replace")
        checker = IncrementalChecker(rules)
        for step, edited in enumerate(edit_walk(text, args.steps, number)):
            started = time.perf_counter()
            expected = check_source(edited, rules)
            scratch_s += time.perf_counter() - started
            started = time.perf_counter()
            got = checker.check(edited)
            split_s += time.perf_counter() - started
            checks += 1
            split += checker.analysed + checker.reused > 0
            all_findings += len(expected)
            if step == 0:
                findings += len(expected)
                dump[str(path)] = [[f.entry, f.line, f.column, f.message] for f in expected]
            if got != expected:
                bad.append(f"{path} step {step}: {len(got)} vs {len(expected)} findings")
                print("DISAGREE", bad[-1], flush=True)
        if number % 100 == 0:
            print(f"{number}/{len(files)} files", flush=True)
    print(
        f"{len(files)} files, {checks} texts (files and their edits; {split} of them split into "
        f"components, the others checked whole or not parsing), {findings} findings on the files "
        f"and {all_findings} on all texts; {len(bad)} disagreements; from scratch "
        f"{scratch_s:.1f} s, incremental {split_s:.1f} s"
    )
    if args.dump:
        args.dump.write_text(json.dumps(dump, indent=0, sort_keys=True) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
