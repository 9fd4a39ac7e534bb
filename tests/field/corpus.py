"""The field programs: small failing programs users posted in public threads (`programs/`).

Each `programs/<NN-slug>/` holds `program.py` (the thread's code, verbatim but for the edits its
`meta.json` lists), `fixed.py` (the thread's fix, or an expert fix when `fixed_by` says so) and
`meta.json`: `url`, `edits`, `family`, `exception` (as Python prints it on the last traceback
line), `traceback_line` (the line of `program.py` the traceback names last), `change_lines` (the
lines of `program.py` that `fixed.py` changes), `fixed_by` (`thread` or `expert`), `fix_kind` (the
kind of change `fixed.py` makes: a fix id of the README's table where it is one of them),
`kind_claimed` (whether the README claims a fix of that kind), `hover` (`line` 1-based,
`character` 0-based, `name`: the JAX API on the line to change, or where that line calls none the
transform that traces it; null when the line is under no JAX API) and `note`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROGRAMS = Path(__file__).parent / "programs"


@dataclass(frozen=True)
class Hover:
    line: int  # 1-based
    character: int  # 0-based
    name: str


@dataclass(frozen=True)
class FieldProgram:
    name: str
    folder: Path
    url: str
    family: str
    exception: str
    traceback_line: int
    change_lines: tuple[int, ...]
    fixed_by: str
    fix_kind: str
    kind_claimed: bool
    hover: Hover | None

    @property
    def program(self) -> Path:
        return self.folder / "program.py"

    @property
    def fixed(self) -> Path:
        return self.folder / "fixed.py"


def _load(folder: Path) -> FieldProgram:
    meta: dict[str, Any] = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    hover = meta["hover"]
    return FieldProgram(
        name=folder.name,
        folder=folder,
        url=meta["url"],
        family=meta["family"],
        exception=meta["exception"],
        traceback_line=int(meta["traceback_line"]),
        change_lines=tuple(int(n) for n in meta["change_lines"]),
        fixed_by=meta["fixed_by"],
        fix_kind=meta["fix_kind"],
        kind_claimed=bool(meta["kind_claimed"]),
        hover=Hover(int(hover["line"]), int(hover["character"]), hover["name"]) if hover else None,
    )


def field_programs() -> list[FieldProgram]:
    return [_load(folder) for folder in sorted(PROGRAMS.iterdir()) if folder.is_dir()]
