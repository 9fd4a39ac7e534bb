"""Which fixes to offer where no diagnostic is: a lightbulb says "something is wrong here", so on
correct code there is none. Offered only where the code is at risk (a predictive rule flags the
line: the fixes of the entry it predicts), or on a range the user selected (every refactoring
recognised there, as asked)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from jaxerr_ls.fixes import FixContext, ProposedFix, fixes_at_cursor, fixes_for
from jaxerr_ls.rules import Finding, check_source


@lru_cache(maxsize=8)
def _findings(source: str) -> tuple[Finding, ...]:
    # Editors ask on every cursor move: the rules run once per text.
    return tuple(check_source(source))


def refactorings(
    source: str,
    line: int,
    column: int,
    *,
    selected: bool,
    fixes_of: Callable[[str], Sequence[str]],
    findings: Sequence[Finding] | None = None,
) -> list[ProposedFix]:
    """The fixes to offer at (line, column), 0-based; `selected` when the user selected a
    non-empty range starting there; `fixes_of(entry id)` gives an entry's fix ids. `findings`:
    the rules' findings on `source` when the caller has them (else the rules run here)."""
    if selected:
        return fixes_at_cursor(FixContext(source, line, column))
    found: list[ProposedFix] = []
    for finding in _findings(source) if findings is None else findings:
        if not finding.line <= line <= finding.end_line:
            continue
        ctx = FixContext(source, finding.line, None, finding.fields, finding.entry)
        for proposal in fixes_for(fixes_of(finding.entry), ctx):
            if all(proposal.edits != other.edits for other in found):
                found.append(proposal)
    return found
