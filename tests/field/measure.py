"""How far the fixes take the field programs (issue 19): for each program, the traceback of a real
run is explained, the preferred quick fix applied and the program run again; `jaxerr-ls fix`
(`fixes.loop.fix_until_runs`, with and without `--unsafe`) runs the same loop as the command.
A fixed program counts as right when it also prints what the thread's `fixed.py` prints.

Programs are copied into a scratch root (the loop edits files in place); nothing here is written
into `programs/`.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.fixes.loop import Edit, Files, fix_until_runs, plan_round
from tests.field.corpus import FieldProgram, field_programs
from tests.field.hovers import HoverSeen, hover_seen, located
from tests.field.worker import FieldWorker, Run


@dataclass(frozen=True)
class Measured:
    program: FieldProgram
    entry: str | None  # the catalog entry the real traceback reaches
    preferred: str | None  # the fix id of the preferred quick fix, None when none applies
    preferred_runs: bool
    preferred_same_output: bool  # runs and prints what fixed.py prints
    unsafe_runs: bool  # `jaxerr-ls fix --unsafe`
    unsafe_same_output: bool
    safe_runs: bool  # `jaxerr-ls fix`
    safe_same_output: bool
    why_not: str | None  # why `fix --unsafe` leaves it failing
    hover: HoverSeen
    failing: Run  # program.py's own run
    fixed: Run  # fixed.py's run


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _write(path: Path, text: str) -> bool:
    path.write_text(text, encoding="utf-8")
    return True


def measure(scratch: Path, programs: list[FieldProgram] | None = None) -> Iterator[Measured]:
    catalog = load_catalog()
    matcher = Matcher(catalog)
    with FieldWorker() as worker:
        for program in programs if programs is not None else field_programs():
            root = scratch / program.name
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(parents=True)
            path = root / "program.py"
            original = program.program.read_text(encoding="utf-8")
            fixed_run = worker.run(program.fixed)
            expected = fixed_run.stdout
            path.write_text(original, encoding="utf-8")
            first = worker.run(path)
            raised = located(first.stderr, root, matcher)  # before any edit moves its line
            plan = plan_round(first.stderr, root, matcher, catalog, _read, unsafe=True)
            preferred: Run | None = None
            if isinstance(plan, Edit):
                path.write_text(plan.after, encoding="utf-8")
                preferred = worker.run(path)
            loops = []
            for unsafe in (True, False):
                path.write_text(original, encoding="utf-8")
                last: list[Run] = []

                def run(path: Path = path, last: list[Run] = last) -> tuple[int, str]:
                    result = worker.run(path)
                    last[:] = [result]
                    return result.status, result.stderr

                outcome = fix_until_runs(
                    run, root, Files(_read, _write), matcher, catalog, io.StringIO(), unsafe=unsafe
                )
                ran = outcome.status == 0
                loops.append((ran, ran and last[0].stdout == expected, outcome.stop))
            yield Measured(
                program,
                raised[0],
                plan.fix.fix_id if isinstance(plan, Edit) else None,
                preferred is not None and preferred.status == 0,
                preferred is not None and preferred.status == 0 and preferred.stdout == expected,
                loops[0][0],
                loops[0][1],
                loops[1][0],
                loops[1][1],
                None if loops[0][0] else (loops[0][2] or "still failing"),
                hover_seen(program, catalog, *raised),
                first,
                fixed_run,
            )
