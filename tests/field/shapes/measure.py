"""Recall and false alarms of the predictive rules on failing programs from public threads.

A program directory holds `program.py` (as the thread gave it, edits listed in `meta.json`),
`fixed.py` and `meta.json` (`url`, `family`, `traceback_line`, `change_lines`). A program is
warned of when a finding is on the line the traceback names or on a line to change; a finding
on `fixed.py` is a false alarm.

    python -m tests.field.shapes.measure [DIR ...]   (default: tests/field/programs and
                                                       tests/field/shapes/programs)
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from jaxerr_ls.rules import check_source

HERE = Path(__file__).resolve().parent
DEFAULT = [HERE.parent / "programs", HERE / "programs"]


@dataclass(frozen=True)
class Measured:
    name: str
    family: str
    warned: bool
    rules: tuple[str, ...]  # the rules that warned on the program's lines
    false_alarms: tuple[str, ...]  # findings on the fixed version


def measure(folder: Path) -> Measured | None:
    meta_path = folder / "meta.json"
    if not meta_path.is_file() or not (folder / "program.py").is_file():
        return None
    meta = json.loads(meta_path.read_text())
    lines = {meta.get("traceback_line"), *meta.get("change_lines", [])}
    found = check_source((folder / "program.py").read_text())
    on_line = [f for f in found if f.line + 1 in lines]
    fixed = folder / "fixed.py"
    noisy = check_source(fixed.read_text()) if fixed.is_file() else []
    return Measured(
        folder.name,
        str(meta.get("family", "?")),
        bool(on_line),
        tuple(sorted({f.rule for f in on_line})),
        tuple(f"{f.line + 1}:{f.entry}" for f in noisy),
    )


def measure_all(folders: list[Path]) -> list[Measured]:
    out = []
    for base in folders:
        for folder in sorted(p for p in base.glob("*") if p.is_dir()):
            found = measure(folder)
            if found is not None:
                out.append(found)
    return out


def report(results: list[Measured]) -> str:
    by_family: Counter[str] = Counter()
    warned: Counter[str] = Counter()
    lines = []
    for r in results:
        by_family[r.family] += 1
        warned[r.family] += r.warned
        mark = ",".join(r.rules) if r.warned else "-"
        alarm = f"  FALSE ALARM on fixed: {r.false_alarms}" if r.false_alarms else ""
        lines.append(f"{r.name:45} {r.family:36} {mark}{alarm}")
    total = len(results)
    hits = sum(r.warned for r in results)
    alarms = sum(bool(r.false_alarms) for r in results)
    lines.append(
        f"\nwarned before running: {hits}/{total}; fixed versions with a finding: {alarms}"
    )
    for family in sorted(by_family):
        lines.append(f"  {family:40} {warned[family]}/{by_family[family]}")
    return "\n".join(lines)


if __name__ == "__main__":
    folders = [Path(a) for a in sys.argv[1:]] or DEFAULT
    print(report(measure_all(folders)))
