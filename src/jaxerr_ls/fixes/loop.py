"""`jaxerr-ls fix -- CMD`: run, explain, apply the preferred fix, run again, until it runs.

The decisions are pure (`plan_round`: a failed run's stderr and the file's text in, the edit to
make or the reason to stop out); `fix_until_runs` sequences them over two effects it is given, one
that runs the command and one that reads and writes files, so tests can drive it either way.
Rules the loop keeps: only files under the root are edited; a text that does not parse back is
never written; a round whose rerun fails with the same error at the same place (no progress) puts
the file back as it was and stops.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from jaxerr_ls.catalog import Catalog, Matcher
from jaxerr_ls.edits.text import map_position
from jaxerr_ls.explain import Explanation, explain_text
from jaxerr_ls.fixes import FixContext, ProposedFix, apply_edits, fixes_for, preferred

DEFAULT_ROUNDS = 5


@dataclass(frozen=True)
class Edit:
    """One round's change: the fix chosen for the error and the file before and after it."""

    path: Path
    line: int  # 1-based line of the error the fix answers
    entry_id: str
    message: str  # the error's message as printed
    fix: ProposedFix
    before: str
    after: str

    def diff(self, root: Path) -> str:
        try:
            name = str(self.path.relative_to(root))
        except ValueError:
            name = str(self.path)
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            f"a/{name}",
            f"b/{name}",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass(frozen=True)
class Stop:
    """Why no fix is applied for this failure."""

    reason: str


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return False
    return True


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _failure(explanations: list[Explanation]) -> Explanation | None:
    """The error the program ended with: the last traceback, else the newest cause with an entry."""
    if not explanations:
        return None
    last = explanations[-1]
    if last.match is not None and last.location is not None:
        return last
    for cause in reversed(last.causes):
        if cause.match is not None and cause.location is not None:
            return cause
    return last


def choose(proposals: list[ProposedFix], unsafe: bool) -> ProposedFix | None:
    """The first safe fix; with `unsafe`, the preferred one (the first offered if none is safe),
    which is the editor's preferred quick fix."""
    best = preferred(proposals)
    return best if best is not None and (unsafe or best.safe) else None


def plan_round(
    stderr: str,
    root: Path,
    matcher: Matcher,
    catalog: Catalog,
    read: Callable[[Path], str | None],
    unsafe: bool,
) -> Edit | Stop:
    """What to change for the traceback in `stderr`, or why nothing can be."""
    failure = _failure(explain_text(stderr, matcher, root=root))
    if failure is None:
        return Stop("no traceback in the program's output")
    if failure.match is None:
        name = failure.traceback.exception
        return Stop(f"{name}: not an error the catalog knows")
    entry = failure.match.entry
    location = failure.location
    if location is None or not location.in_workspace:
        return Stop(f"{entry.id}: the error is not located in a file under {root}")
    path = Path(location.path)
    if not _inside(path, root):
        return Stop(f"{entry.id}: {path} is outside {root}; not edited")
    if not entry.fixes:
        return Stop(f"{entry.id}: no mechanical fix is known for this error")
    before = read(path)
    if before is None:
        return Stop(f"{entry.id}: cannot read {path}")
    ctx = FixContext(before, location.line - 1, None, failure.match.fields, entry.id)
    chosen = choose(fixes_for(entry.fixes, ctx), unsafe)
    if chosen is None:
        more = "" if unsafe else " (no safe one; --unsafe allows the others)"
        return Stop(f"{entry.id}: no fix applies at {path.name}:{location.line}{more}")
    after = apply_edits(before, chosen.edits)
    if not _parses(after):
        return Stop(f"{entry.id}: '{chosen.title}' would not parse; not written")
    return Edit(path, location.line, entry.id, failure.traceback.message, chosen, before, after)


@dataclass(frozen=True)
class Outcome:
    status: int  # the command's last exit status
    edits: tuple[Edit, ...]  # the rounds whose change was kept
    stop: str | None  # why the loop ended while the command still fails


RunCommand = Callable[[], tuple[int, str]]  # runs CMD once: (status, its stderr)


@dataclass(frozen=True)
class Files:
    read: Callable[[Path], str | None]
    write: Callable[[Path, str], bool]  # False when the text could not be written


def fix_until_runs(
    run: RunCommand,
    root: Path,
    files: Files,
    matcher: Matcher,
    catalog: Catalog,
    out: TextIO,
    *,
    unsafe: bool = False,
    dry_run: bool = False,
    max_rounds: int = DEFAULT_ROUNDS,
) -> Outcome:
    status, stderr = run()
    kept: list[Edit] = []
    for _ in range(max_rounds):
        if status == 0:
            return Outcome(status, tuple(kept), None)
        plan = plan_round(stderr, root, matcher, catalog, files.read, unsafe)
        if isinstance(plan, Stop):
            return Outcome(status, tuple(kept), plan.reason)
        out.write(f"jaxerr-ls fix: {plan.entry_id}: {plan.fix.title}\n")
        out.write(plan.diff(root))
        out.flush()
        if dry_run:
            return Outcome(status, tuple(kept), "dry run: nothing changed")
        if not files.write(plan.path, plan.after):
            return Outcome(status, tuple(kept), f"cannot write {plan.path}")
        status, stderr = run()
        if status != 0 and _same_failure(stderr, plan, root, matcher):
            files.write(plan.path, plan.before)
            out.write(f"jaxerr-ls fix: the same error again; {plan.path.name} put back\n")
            return Outcome(status, tuple(kept), f"{plan.entry_id}: the fix did not help")
        kept.append(plan)
    if status == 0:
        return Outcome(status, tuple(kept), None)
    return Outcome(status, tuple(kept), f"still failing after {max_rounds} round(s)")


def _same_failure(stderr: str, edit: Edit, root: Path, matcher: Matcher) -> bool:
    failure = _failure(explain_text(stderr, matcher, root=root))
    if failure is None or failure.match is None or failure.location is None:
        return False
    if failure.match.entry.id != edit.entry_id or Path(failure.location.path) != edit.path:
        return False
    if _comparable(failure.traceback.message) != _comparable(edit.message):
        return False  # e.g. the next parameter that must be static: progress
    # The error's line, followed through the edit (an added import moves it down).
    line, _ = map_position(edit.before, edit.fix.edits, edit.line - 1, 0)
    return failure.location.line == line + 1


_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _comparable(message: str) -> str:
    """The message without object addresses (`<function f at 0x7f...>` differs run to run)."""
    return _ADDRESS.sub("0x", message)
