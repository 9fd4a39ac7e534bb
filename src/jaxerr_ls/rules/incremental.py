"""The rules' findings for successive versions of one file, re-analysing only what an edit can
change: the file's top-level statements are grouped into components that share no name
(`jaxerr_ls.analysis.units`); each component is analysed with the file's imports, and its
findings are kept under its text. An edit inside a function re-analyses that function's
component: the function, what it calls, jits or binds, and whatever names it or is named by it.

The findings are those of `check_source` on the whole text, line for line (the tests compare
both at every step of edit sequences, and over the libraries' files). Files this cannot split
exactly (a local import, `jax_debug_key_reuse`, line breaks `ast` does not count) are checked
whole.

Pure: no LSP, no I/O. Not thread-safe: one checker per document, one check at a time.
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import re
from collections.abc import Mapping, Sequence

from jaxerr_ls.analysis.build import analyze_part
from jaxerr_ls.analysis.units import Interface, Unit, components, interface, split_units
from jaxerr_ls.catalog.versions import installed_jax_version
from jaxerr_ls.resolve import scan_imports
from jaxerr_ls.rules import check_model, check_source, rules_for
from jaxerr_ls.rules.api_history import ApiHistoryRule
from jaxerr_ls.rules.base import Finding, Rule

# Characters `str.splitlines` breaks at and `ast` does not: the rules' line numbers would differ.
_ODD_BREAKS = re.compile("[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_KEEP = 3  # checks a cached result survives unused (an undo finds it)

# (the file's bindings, the installed JAX the rules read, the component's statements)
ComponentKey = tuple[tuple[tuple[str, str], ...], str | None, tuple[str, ...]]


class _Whole(Exception):
    """This text is checked whole."""


class IncrementalChecker:
    """`check(source)` = `check_source(source, rules)`, reusing what earlier checks computed."""

    def __init__(self, rules: Sequence[Rule] | None = None) -> None:
        self.rules: Sequence[Rule] = rules_for(None) if rules is None else rules
        self._generation = 0
        self._interfaces: dict[tuple[tuple[tuple[str, str], ...], str], tuple[int, Interface]] = {}
        self._results: dict[ComponentKey, tuple[int, tuple[Finding, ...]]] = {}
        self._previous: tuple[list[str], list[Unit]] | None = None  # the last text's lines, units
        self.analysed = 0  # components analysed by the last check (the rest came from the cache)
        self.reused = 0

    def check(self, source: str) -> list[Finding]:
        self._generation += 1
        self.analysed = self.reused = 0
        try:
            found = self._check(source)
        except _Whole:
            found = check_source(source, self.rules)
        self._prune()
        return found

    def _check(self, source: str) -> list[Finding]:
        if _ODD_BREAKS.search(source) or "debug_key_reuse" in source.lower():
            raise _Whole
        lines = source.splitlines(keepends=True)
        units = self._units(lines)
        if units is None:
            return []
        bindings = scan_imports(source)
        imports = tuple(bindings.items())
        faces = [self._interface(unit, bindings, imports) for unit in units]
        if any(face.local_import for face in faces):
            raise _Whole
        shared = [k for k, face in enumerate(faces) if face.shared]
        # The installed JAX, read once per check (not once per component) by the API history.
        installed = installed_jax_version()
        rules = [
            rule.for_release(installed)
            if isinstance(rule, ApiHistoryRule) and rule.release is None
            else rule
            for rule in self.rules
        ]
        out: list[Finding] = []
        for number, group in enumerate(components(faces) or [[]]):
            members = sorted([*shared, *group])
            # Findings on the shared imports are the same in every component: take the first's.
            keep = set(members) if number == 0 else set(group)
            key: ComponentKey = (imports, installed, tuple(units[k].text for k in members))
            out += self._component(units, members, keep, key, bindings, rules)
        return sorted(out, key=lambda f: (f.line, f.column, f.entry))

    def _units(self, lines: list[str]) -> list[Unit] | None:
        """The text's units: the last text's where the lines did not change, the changed lines
        parsed alone (they start and end between top-level statements); None: no parse."""
        previous = self._previous  # the last text that parsed
        units = _reparse(previous, lines) if previous is not None else None
        if units is None:
            try:
                tree = ast.parse("".join(lines))
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return None
            units = split_units(tree, lines)
        self._previous = (lines, units)
        return units

    def _interface(
        self, unit: Unit, bindings: Mapping[str, str], imports: tuple[tuple[str, str], ...]
    ) -> Interface:
        key = (imports, unit.text)
        cached = self._interfaces.get(key)
        face = cached[1] if cached is not None else interface(unit, bindings)
        self._interfaces[key] = (self._generation, face)
        return face

    def _component(
        self,
        units: Sequence[Unit],
        members: Sequence[int],
        keep: set[int],
        key: ComponentKey,
        bindings: Mapping[str, str],
        rules: Sequence[Rule],
    ) -> list[Finding]:
        cached = self._results.get(key)
        if cached is not None:
            found = cached[1]
            self.reused += 1
        else:
            model = analyze_part("".join(key[2]), bindings)
            if model is None:  # cannot happen for statements of a file that parses
                raise _Whole
            found = tuple(check_model(model, rules))
            self.analysed += 1
        self._results[key] = (self._generation, found)
        # Where each member starts in the component's text, and in the file.
        starts: list[int] = []
        at = 0
        for k in members:
            starts.append(at)
            at += units[k].last - units[k].first + 1
        out = []
        for finding in found:
            place = bisect.bisect_right(starts, finding.line) - 1
            unit = members[place]
            if unit in keep:
                line = finding.line - starts[place] + units[unit].first
                end = finding.end_line - finding.line + line
                out.append(dataclasses.replace(finding, line=line, end_line=end))
        return out

    def _prune(self) -> None:
        oldest = self._generation - _KEEP
        self._interfaces = {k: v for k, v in self._interfaces.items() if v[0] >= oldest}
        self._results = {k: v for k, v in self._results.items() if v[0] >= oldest}


def _reparse(previous: tuple[list[str], list[Unit]], lines: list[str]) -> list[Unit] | None:
    """The units of `lines` from those of the previous lines: the units before and after the
    changed lines kept (moved), the lines between them parsed on their own. None when they do
    not parse alone (an edit that opens a bracket or a string, or indents into the unit above):
    then the whole text is parsed."""
    old_lines, old_units = previous
    limit = min(len(old_lines), len(lines))
    same_head = 0
    while same_head < limit and old_lines[same_head] == lines[same_head]:
        same_head += 1
    same_tail = 0
    while (
        same_tail < limit - same_head
        and old_lines[len(old_lines) - 1 - same_tail] == lines[len(lines) - 1 - same_tail]
    ):
        same_tail += 1
    changed_end = len(old_lines) - same_tail  # old lines [same_head, changed_end) changed
    delta = len(lines) - len(old_lines)
    before = [u for u in old_units if u.last < same_head]
    after = [u for u in old_units if u.first >= changed_end]
    start = before[-1].last + 1 if before else 0
    end = after[0].first + delta if after else len(lines)
    region = lines[start:end]
    text = "".join(region)
    if "__future__" in text:
        return None  # must come first in the file: parse it whole
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    middle = [
        dataclasses.replace(u, first=u.first + start, last=u.last + start)
        for u in split_units(tree, region)
    ]
    moved = [dataclasses.replace(u, first=u.first + delta, last=u.last + delta) for u in after]
    return [*before, *middle, *moved]
