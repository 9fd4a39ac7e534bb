"""The measure of issue 11: on small real programs whose JAX error has a mechanical fix, how many
run after the preferred quick fix, and after `jaxerr-ls fix` (its core, over the same runs).

Each program in `programs/` names the fix expected first (`# expect: <fix id>`). Tracebacks come
from running the programs under the installed JAX, never from text typed here.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.fixes.loop import Edit, Files, fix_until_runs, plan_round
from tests.fixes.jax_worker import JaxWorker

pytestmark = pytest.mark.jax

PROGRAMS = Path(__file__).parent / "programs"


@dataclass(frozen=True)
class Result:
    name: str
    expected: str
    failed_before: bool
    preferred: str | None  # the fix id the preferred quick fix came from
    preferred_runs: bool
    fix_unsafe_runs: bool  # `jaxerr-ls fix --unsafe`
    fix_safe_runs: bool  # `jaxerr-ls fix`


def _expected(text: str) -> str:
    first = text.splitlines()[0]
    assert first.startswith("# expect: "), first
    return first.removeprefix("# expect: ").strip()


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8")


def _write(path: Path, text: str) -> bool:
    path.write_text(text, encoding="utf-8")
    return True


def _measure(root: Path) -> Iterator[Result]:
    catalog = load_catalog()
    matcher = Matcher(catalog)
    with JaxWorker() as worker:
        for program in sorted(PROGRAMS.glob("*.py")):
            original = program.read_text(encoding="utf-8")
            path = root / program.name
            path.write_text(original, encoding="utf-8")
            status, stderr = worker.run(path)
            plan = plan_round(stderr, root, matcher, catalog, _read, unsafe=True)
            preferred_runs = False
            if isinstance(plan, Edit):
                path.write_text(plan.after, encoding="utf-8")
                preferred_runs = worker.run(path)[0] == 0
            outcomes = []
            for unsafe in (True, False):
                path.write_text(original, encoding="utf-8")
                outcome = fix_until_runs(
                    lambda path=path: worker.run(path),  # type: ignore[misc]
                    root,
                    Files(_read, _write),
                    matcher,
                    catalog,
                    io.StringIO(),
                    unsafe=unsafe,
                )
                outcomes.append(outcome.status == 0)
            yield Result(
                program.name,
                _expected(original),
                status != 0,
                plan.fix.fix_id if isinstance(plan, Edit) else None,
                preferred_runs,
                outcomes[0],
                outcomes[1],
            )


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[Result]:
    pytest.importorskip("jax", reason="needs JAX installed")
    root = tmp_path_factory.mktemp("corpus")
    found = list(_measure(root))
    shutil.rmtree(root, ignore_errors=True)
    _report(found)
    return found


def _report(results: list[Result]) -> None:
    """The table docs/fixes.md quotes (printed with `pytest -s`)."""
    by_fix: dict[str, list[Result]] = {}
    for result in results:
        by_fix.setdefault(result.expected, []).append(result)
    print("\n| fix | programs | preferred fix runs | `fix --unsafe` runs | `fix` runs |")
    print("|---|---|---|---|---|")
    for fix_id, group in sorted(by_fix.items()):
        cells = [sum(getattr(r, a) for r in group) for a in _RATES]
        print(f"| `{fix_id}` | {len(group)} | " + " | ".join(str(c) for c in cells) + " |")
    totals = [sum(getattr(r, a) for r in results) for a in _RATES]
    print(f"| all | {len(results)} | " + " | ".join(str(t) for t in totals) + " |")


_RATES = ("preferred_runs", "fix_unsafe_runs", "fix_safe_runs")


def test_every_program_fails_before_its_fix(results: list[Result]) -> None:
    assert [r.name for r in results if not r.failed_before] == []


def test_the_preferred_fix_is_the_expected_one(results: list[Result]) -> None:
    wrong = [(r.name, r.expected, r.preferred) for r in results if r.preferred != r.expected]
    assert len(wrong) <= len(results) // 10, wrong


def test_the_preferred_fix_makes_well_over_four_in_five_run(results: list[Result]) -> None:
    runs = sum(r.preferred_runs for r in results)
    assert runs >= 0.9 * len(results), [r.name for r in results if not r.preferred_runs]


def test_fix_gets_at_least_as_far(results: list[Result]) -> None:
    preferred = {r.name for r in results if r.preferred_runs}
    fixed = {r.name for r in results if r.fix_unsafe_runs}
    assert preferred <= fixed
    safe_only = {r.name for r in results if r.fix_safe_runs}
    assert safe_only <= fixed
    # `fix` without --unsafe applies only fixes that keep behaviour: the programs whose only fix
    # changes behaviour stay as they are.
    assert len(safe_only) >= 0.7 * len(results)
