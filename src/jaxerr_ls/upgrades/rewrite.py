"""Edits that rename removed or deprecated JAX names to what JAX says replaces them. Pure.

Only renames in `renames.py` are made, and only when the new name exists in the target release
and can be spelled with the file's own imports; a `from M import old` becomes
`from M2 import new as old` so the rest of the file is untouched.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxerr_ls.edits import TextEdit
from jaxerr_ls.upgrades.check import Problem, problems_in
from jaxerr_ls.upgrades.history import ApiHistory
from jaxerr_ls.upgrades.renames import Rename
from jaxerr_ls.upgrades.uses import FileUses, _span, collect_uses, express


@dataclass(frozen=True)
class RenameEdit:
    problem: Problem
    rename: Rename
    edit: TextEdit

    @property
    def title(self) -> str:
        old, new = self.rename.old, self.rename.new
        if self.rename.safe:
            return f"Rename {old} to {new}"
        return f"Use {new} instead of {old} (changes behaviour: {self.rename.why})"


def _available(history: ApiHistory, name: str, bound: str, release: str) -> bool:
    """Every part of `name` past the bound prefix exists in the release."""
    parts = name.split(".")
    for k in range(bound.count(".") + 2, len(parts) + 1):
        verdict = history.verdict(".".join(parts[:k]), release)
        if verdict is None or verdict.status not in ("ok", "deprecated"):
            return False
    return True


def _bound_prefix(name: str, uses: FileUses) -> str:
    matches = [t for t in uses.bindings.values() if name == t or name.startswith(t + ".")]
    return max(matches, key=len, default="")


def _edit(
    problem: Problem, rename: Rename, uses: FileUses, history: ApiHistory, release: str
) -> TextEdit | None:
    use = problem.use
    if use.kind == "attribute":
        text = express(rename.new, uses.bindings)
        bound = _bound_prefix(rename.new, uses)
        if text is None or not _available(history, rename.new, bound, release):
            return None
        return TextEdit(problem.line, problem.column, problem.end_line, problem.end_column, text)
    if use.kind == "from-import" and isinstance(use.node, ast.alias):
        if not _available(history, rename.new, "jax", release):
            return None
        alias = use.node
        local = alias.asname or alias.name
        module, _, attribute = rename.new.rpartition(".")
        old_module = rename.old.rpartition(".")[0]
        spelled = attribute if attribute == local else f"{attribute} as {local}"
        if module == old_module:
            return TextEdit(use.line, use.column, use.end_line, use.end_column, spelled)
        statement = next(
            (
                node
                for node in ast.walk(ast.parse("\n".join(uses.lines)))
                if isinstance(node, ast.ImportFrom)
                and node.lineno - 1 == use.line
                and len(node.names) == 1
                and node.names[0].name == alias.name
            ),
            None,
        )
        if statement is None:
            return None  # `from jax import a, tree_map`: the import would need splitting
        start_line, start, end_line, end = _span(uses.lines, statement)
        return TextEdit(start_line, start, end_line, end, f"from {module} import {spelled}")
    return None


def rename_edits(
    source: str,
    history: ApiHistory,
    release: str | None,
    *,
    unsafe: bool = False,
    line: int | None = None,
) -> list[RenameEdit]:
    """The renames for every flagged use (or those on `line`), in source order."""
    uses = collect_uses(source)
    if uses is None:
        return []
    target = history.release_for(release)
    out: list[RenameEdit] = []
    for problem in problems_in(uses, history, target):
        rename = problem.rename
        if rename is None or rename.old != problem.name or (not rename.safe and not unsafe):
            continue
        if line is not None and not problem.line <= line <= problem.end_line:
            continue
        edit = _edit(problem, rename, uses, history, target)
        if edit is not None:
            out.append(RenameEdit(problem, rename, edit))
    return out
