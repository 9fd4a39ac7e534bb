"""The field programs run under the installed JAX as their `meta.json` says: each `program.py`
fails with the recorded exception at the recorded line, and each `fixed.py` runs."""

from __future__ import annotations

import re

import pytest

from tests.field.corpus import FieldProgram, field_programs
from tests.field.measure import Measured
from tests.field.worker import Run

pytestmark = pytest.mark.jax

PROGRAMS = field_programs()


@pytest.fixture(scope="module")
def runs(results: list[Measured]) -> dict[str, tuple[Run, Run]]:
    """program.py's and fixed.py's runs, from the session's one measured run of them all."""
    return {m.program.name: (m.failing, m.fixed) for m in results}


def _last_line_in(stderr: str) -> int | None:
    """The line of program.py the traceback names last (measured in a scratch copy)."""
    lines = [
        int(n)
        for path, n in re.findall(r'File "([^"]+)", line (\d+)', stderr)
        if path.endswith("/program.py")
    ]
    return lines[-1] if lines else None


def raised(stderr: str) -> str | None:
    """The exception's name as Python prints it (JAX may append a note after it)."""
    names = re.findall(r"^([A-Za-z_][\w.]*(?:Error|Exception))\b", stderr, re.MULTILINE)
    return names[-1] if names else None


def test_there_are_at_least_forty_programs_from_public_threads() -> None:
    assert len(PROGRAMS) >= 40
    assert all(p.url.startswith("https://github.com/") for p in PROGRAMS)
    assert len({p.url for p in PROGRAMS}) == len(PROGRAMS)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_the_program_fails_as_recorded_and_the_fix_runs(
    program: FieldProgram, runs: dict[str, tuple[Run, Run]]
) -> None:
    failing, fixed = runs[program.name]
    assert failing.status == 1, f"{program.name} ran without error"
    assert raised(failing.stderr) == program.exception, failing.stderr[-400:]
    assert _last_line_in(failing.stderr) == program.traceback_line
    assert fixed.status == 0, fixed.stderr
