"""The field-program figures of docs/field-programs.md (issue 19):

    .venv/bin/python -m tests.field.report [--json]

Runs every field program under the installed JAX (one interpreter), so it takes about a minute.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from tests.field.measure import Measured, measure

_RATES = (
    "preferred_runs",
    "preferred_same_output",
    "unsafe_runs",
    "unsafe_same_output",
    "safe_runs",
    "safe_same_output",
)
_HEAD = (
    "| fix kind (of `fixed.py`) | programs | preferred fix runs | … prints the same |"
    " `fix --unsafe` runs | … prints the same | `fix` runs | … prints the same |"
)


def _row(name: str, group: list[Measured]) -> str:
    cells = [str(sum(getattr(m, rate) for m in group)) for rate in _RATES]
    return f"| {name} | {len(group)} | " + " | ".join(cells) + " |"


def table(results: list[Measured]) -> str:
    by_kind: dict[str, list[Measured]] = defaultdict(list)
    for m in results:
        by_kind[m.program.fix_kind].append(m)
    claimed = [m for m in results if m.program.kind_claimed]
    lines = [_HEAD, "|" + "---|" * 8]
    for kind in sorted(by_kind, key=lambda k: (not by_kind[k][0].program.kind_claimed, k)):
        mark = "" if by_kind[kind][0].program.kind_claimed else " (not claimed)"
        lines.append(_row(f"`{kind}`{mark}", by_kind[kind]))
    lines.append(_row("**kinds the README claims**", claimed))
    lines.append(_row("**all**", results))
    return "\n".join(lines)


def unhelped(results: list[Measured]) -> str:
    lines = [
        "| program | entry reached | preferred fix | why `fix --unsafe` stops |",
        "|---|---|---|---|",
    ]
    for m in results:
        if not m.unsafe_same_output:
            why = m.why_not or "runs, but prints something else than `fixed.py`"
            lines.append(f"| {m.program.name} | {m.entry or '—'} | {m.preferred or '—'} | {why} |")
    return "\n".join(lines)


def hovers(results: list[Measured]) -> str:
    with_hover = [m for m in results if m.program.hover is not None]
    visible = sum(m.hover.visible for m in with_hover)
    before = sum(m.hover.visible_before for m in with_hover)
    lines = [
        f"Raised error visible in the hover of the API on the line to change: **{visible} of "
        f"{len(with_hover)}** (the catalog's order, as before issue 19: {before} of "
        f"{len(with_hover)}; {len(results) - len(with_hover)} programs have no JAX API there).",
        "",
        "| program | API hovered | raised error (entry) | place in the hover | before |",
        "|---|---|---|---|---|",
    ]
    for m in with_hover:
        h = m.hover
        place = "no hover" if h.api is None else (str(h.rank) if h.rank else "absent")
        lines.append(
            f"| {m.program.name} | {h.api or '—'} | {h.entry or '—'} | {place}"
            f"{' ✓' if h.visible else ''} | {'✓' if h.visible_before else ''} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="one object per program")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        results = list(measure(Path(scratch)))
    if args.json:
        for m in results:
            row: dict[str, object] = {"program": m.program.name, "fix_kind": m.program.fix_kind}
            row.update({k: getattr(m, k) for k in ("entry", "preferred", *_RATES, "why_not")})
            row.update(
                hover_api=m.hover.api, hover_visible=m.hover.visible, hover_rank=m.hover.rank
            )
            print(json.dumps(row))
        return 0
    print(table(results))
    print()
    print(unhelped(results))
    print()
    print(hovers(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
