"""Predictive rules: each reads the file's tracing model (`jaxerr_ls.analysis`) and yields the
catalog entries JAX will raise when it traces the code, before anything runs.

Adding a rule = one module here defining `RULE` (the `Rule` protocol of `rules/base.py`: `id`,
`entries`, `check(model) -> Iterable[Finding]`) + one line in `_ALL`. Findings carry the entry id
and the message fields a traceback would give, so the entry's quick fixes (`jaxerr_ls.fixes`)
apply. `# jaxerr: ignore` / `# jaxerr: ignore[<entry-id>,...]` on a line silences it.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from jaxerr_ls.analysis import Model, analyze
from jaxerr_ls.analysis.cells import join_cells
from jaxerr_ls.analysis.shapes import oracle_for
from jaxerr_ls.rules import (
    api_history,
    axis_names,
    boolean_index,
    concretization,
    int_seed,
    item_assignment,
    jit_arguments,
    jnp_list,
    key_reuse,
    numpy_on_traced,
    refs,
    scalar_conversion,
    shapes,
    size_required,
    tracer_bool,
)
from jaxerr_ls.rules.base import Finding, Rule

__all__ = [
    "RULES",
    "Finding",
    "Rule",
    "check_cells",
    "check_model",
    "check_source",
    "ignored",
    "rules_for",
]

log = logging.getLogger(__name__)

_ALL: tuple[Rule, ...] = (
    tracer_bool.RULE,
    concretization.RULE,
    scalar_conversion.RULE,
    numpy_on_traced.RULE,
    item_assignment.RULE,
    boolean_index.RULE,
    size_required.RULE,
    int_seed.RULE,
    jnp_list.RULE,
    jit_arguments.RULE,
    refs.RULE,
    key_reuse.RULE,
    axis_names.RULE,
    api_history.RULE,
    shapes.RULE,  # last: a finding another rule made on the same line is not doubled
)

RULES: Mapping[str, Rule] = MappingProxyType({rule.id: rule for rule in _ALL})


def rules_for(jax_version: str | None, interpreter: str | None = None) -> tuple[Rule, ...]:
    """Every rule, the API-history rule checking against `jax_version` (None: installed), the
    shape rules asking the JAX of `interpreter` (None: the interpreter running this)."""
    out: list[Rule] = []
    for rule in _ALL:
        if rule is api_history.RULE:
            rule = api_history.RULE.for_release(jax_version)
        elif rule is shapes.RULE and interpreter is not None:
            rule = shapes.RULE.with_oracle(oracle_for(interpreter))
        out.append(rule)
    return tuple(out)


_IGNORE = re.compile(r"#\s*jaxerr:\s*ignore(?:\[(?P<ids>[^\]]*)\])?")


def ignored(line: str, entry: str) -> bool:
    """Whether `# jaxerr: ignore` (all) or `# jaxerr: ignore[a, b]` (these entries) is on it."""
    for found in _IGNORE.finditer(line):
        ids = found.group("ids")
        if ids is None or entry in {i.strip() for i in ids.split(",")}:
            return True
    return False


def check_model(model: Model, rules: Sequence[Rule] = _ALL) -> list[Finding]:
    """Every rule's findings, one per (entry, line, column), ignore comments honoured, sorted."""
    found: dict[tuple[str, int, int], Finding] = {}
    for rule in rules:
        try:
            results: Iterable[Finding] = list(rule.check(model))
        except Exception:  # noqa: BLE001 - a rule failing on odd code says nothing
            log.exception("rule %s failed", rule.id)
            continue
        lines = {(f.entry, f.line) for f in found.values()}
        for item in results:
            text = model.lines[item.line] if item.line < len(model.lines) else ""
            if item.rule == shapes.RULE.id and (item.entry, item.line) in lines:
                continue  # another rule said it on this line already
            if not ignored(text, item.entry):
                found.setdefault((item.entry, item.line, item.column), item)
    return sorted(found.values(), key=lambda f: (f.line, f.column, f.entry))


def check_source(source: str, rules: Sequence[Rule] = _ALL) -> list[Finding]:
    """The findings for a file's text; none when it does not parse."""
    model = analyze(source)
    return [] if model is None else check_model(model, rules)


def check_cells(
    cells: Sequence[tuple[str, str]], rules: Sequence[Rule] | None = None
) -> list[tuple[str, Finding]]:
    """(cell key, finding in that cell's lines) for a notebook's code cells, given as (key,
    source) in notebook order and analysed as one program (a function defined in one cell and
    jitted in another is seen as such)."""
    rules = _ALL if rules is None else rules
    joined = join_cells(cells)
    model = analyze(joined.source)
    if model is None:  # cannot happen for cells that each parse; then check them one by one
        return [(key, f) for key, source in cells for f in check_source(source, rules)]
    out: list[tuple[str, Finding]] = []
    for found in check_model(model, rules):
        placed = joined.place(found.line)
        if placed is not None:
            cell, line = placed
            out.append((cell.key, dataclasses.replace(found, line=line, end_line=line)))
    return out
