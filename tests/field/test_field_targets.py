"""Issue 19's bar on the field programs, measured as `tests/field/report.py` does: the preferred
quick fix makes at least 80% of the programs whose fix is a kind the README claims run and print
what the thread's fixed program prints, `fix --unsafe` as many; a fix marked safe never changes
what a program prints; the raised error is visible in the hover of the API on the line to change
for at least 80% of the programs with a JAX API there."""

from __future__ import annotations

import pytest

from tests.field.measure import Measured

pytestmark = pytest.mark.jax


def test_the_preferred_fix_makes_four_in_five_claimed_programs_right(
    results: list[Measured],
) -> None:
    claimed = [m for m in results if m.program.kind_claimed]
    right = [m for m in claimed if m.preferred_same_output]
    assert len(right) >= 0.8 * len(claimed), [m.program.name for m in claimed if m not in right]
    unsafe = [m for m in claimed if m.unsafe_same_output]
    assert len(unsafe) >= len(right)


def test_a_safe_fix_never_changes_what_a_program_prints(results: list[Measured]) -> None:
    changed = [m.program.name for m in results if m.safe_runs and not m.safe_same_output]
    assert changed == []


def test_the_raised_error_is_visible_in_the_hover_on_the_line_to_change(
    results: list[Measured],
) -> None:
    hovered = [m for m in results if m.program.hover is not None]
    visible = [m for m in hovered if m.hover.visible]
    missing = [m.program.name for m in hovered if not m.hover.visible]
    assert len(visible) >= 0.8 * len(hovered), missing
