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
from jaxerr_ls.upgrades.uses import FileUses, _span, chain_of, collect_uses, express


@dataclass(frozen=True)
class RenameEdit:
    problem: Problem
    rename: Rename
    edit: TextEdit

    @property
    def title(self) -> str:
        old, new = self.rename.old, self.rename.new
        if self.rename.method:
            return f"Rewrite {old}(x, i, y) as x.at[i].{self.rename.method}(y)"
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


_PLAIN = (ast.Name, ast.Attribute, ast.Subscript, ast.Call)


def _method_edit(problem: Problem, rename: Rename, uses: FileUses) -> TextEdit | None:
    """`jax.ops.index_update(x, i, y)` -> `x.at[i].set(y)`: only a call with exactly those three
    positional arguments; `jax.ops.index[a, b]` as the index becomes `a, b`."""
    source = "\n".join(uses.lines)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    node = problem.use.node
    call = next(
        (
            c
            for c in ast.walk(tree)
            if isinstance(c, ast.Call)
            and isinstance(node, ast.expr)
            and (c.func.lineno, c.func.col_offset, c.func.end_lineno, c.func.end_col_offset)
            == (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
        ),
        None,
    )
    if call is None or len(call.args) != 3 or call.keywords:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    array, index, value = call.args
    parts = [ast.get_source_segment(source, a) for a in call.args]
    if None in parts:
        return None
    x, i, y = (str(p) for p in parts)
    if isinstance(index, ast.Subscript) and (chain_of(index.value) or [""])[-1] == "index":
        i = str(ast.get_source_segment(source, index.slice) or i)
    elif isinstance(index, ast.List):
        # `index_update(x, [0], v)`: the old API indexed with the list as an array; `.at[...]`
        # refuses a list (a non-tuple sequence), so the array is spelled out.
        asarray = express("jax.numpy.asarray", uses.bindings)
        if asarray is None:
            return None
        i = f"{asarray}({i})"
    if not isinstance(array, _PLAIN):
        x = f"({x})"
    del value
    start_line, start, end_line, end = _span(uses.lines, call)
    return TextEdit(start_line, start, end_line, end, f"{x}.at[{i}].{rename.method}({y})")


def _edit(
    problem: Problem, rename: Rename, uses: FileUses, history: ApiHistory, release: str
) -> TextEdit | None:
    use = problem.use
    if rename.method:
        return _method_edit(problem, rename, uses) if use.kind == "attribute" else None
    if use.kind == "import" and isinstance(use.node, ast.alias) and use.node.asname:
        # `import jax.experimental.stax as stax` -> `import jax.example_libraries.stax as stax`
        if use.node.name != rename.old or not _available(history, rename.new, "jax", release):
            return None
        return TextEdit(
            use.line, use.column, use.end_line, use.end_column, f"{rename.new} as {use.node.asname}"
        )
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


def _module_edit(problem: Problem, uses: FileUses) -> RenameEdit | None:
    """`from jax.abstract_arrays import ShapedArray` (a removed module): the statement imports
    from the module every name's safe rename points into (`from jax.core import ShapedArray`)."""
    from jaxerr_ls.upgrades.renames import Rename, rename_for

    node = problem.use.node
    if not isinstance(node, ast.ImportFrom) or not node.module:
        return None
    modules, names = set(), []
    for alias in node.names:
        found = rename_for(f"{node.module}.{alias.name}")
        if alias.name == "*" or found is None or not found.safe or found.method:
            return None
        module, _, attribute = found.new.rpartition(".")
        modules.add(module)
        local = alias.asname or alias.name
        names.append(attribute if attribute == local else f"{attribute} as {local}")
    if len(modules) != 1:
        return None
    (module,) = modules
    rename = Rename(node.module, module, True, f"every name imported is in {module}")
    start_line, start, end_line, end = _span(uses.lines, node)
    text = f"from {module} import {', '.join(names)}"
    return RenameEdit(problem, rename, TextEdit(start_line, start, end_line, end, text))


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
        if (
            rename is None
            and problem.use.kind == "from-module"
            and problem.name == problem.use.name
        ):
            moved = _module_edit(problem, uses)
            in_line = line is None or problem.line <= line <= problem.end_line
            if moved is not None and in_line and _available(history, moved.rename.new, "", target):
                out.append(moved)
            continue
        if rename is None or rename.old != problem.name or (not rename.safe and not unsafe):
            continue
        if line is not None and not problem.line <= line <= problem.end_line:
            continue
        edit = _edit(problem, rename, uses, history, target)
        if edit is not None and not any(_overlap(edit, kept.edit) for kept in out):
            out.append(RenameEdit(problem, rename, edit))
    return out


def _overlap(a: TextEdit, b: TextEdit) -> bool:
    """A call rewritten whole holds other names' spans: one edit per stretch of text."""
    return (a.start_line, a.start_col) < (b.end_line, b.end_col) and (b.start_line, b.start_col) < (
        a.end_line,
        a.end_col,
    )
