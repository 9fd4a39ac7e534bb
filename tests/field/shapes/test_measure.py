"""The predictive rules on failing programs from public threads (tests/field/programs, gathered
by the programs helper, and tests/field/shapes/programs): at least half warned of before running,
on the line the traceback names or a line to change; nothing on their fixed versions."""

from __future__ import annotations

from tests.field.shapes.measure import DEFAULT, measure_all, report


def test_half_the_field_programs_are_warned_of_and_their_fixes_are_quiet() -> None:
    results = measure_all(DEFAULT)
    print("\n" + report(results))
    assert len(results) >= 40
    assert sum(r.warned for r in results) * 2 >= len(results)
    assert [r.name for r in results if r.false_alarms] == []
