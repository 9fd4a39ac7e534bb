"""`jaxerr-ls check [PATH ...] [--json]`: the predictive rules over files, printed as linters do.

`path:line:col: <entry-id> <message>` per finding (1-based), or with `--json` a list of
`{"path", "line", "column", "entry", "message"}`. Exit 1 with findings, 0 without, 2 when an
input cannot be read or parsed (the others are still checked).

A notebook (`.ipynb`) is checked as the program its code cells make, in notebook order: a finding
says its cell, `path:cell N:line:col: ...` (N counted from 1, as people count cells) and in JSON
`"cell"` (0-based index among all cells, as `explain NOTEBOOK.ipynb --json` gives it) with
`line` in that cell.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from jaxerr_ls.analysis import analyze
from jaxerr_ls.analysis.cells import join_cells
from jaxerr_ls.rules import Finding, Rule, check_cells, check_model, rules_for

# Directories a linter skips: virtual environments, caches, VCS metadata.
_SKIPPED = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})


@dataclass(frozen=True)
class Checked:
    path: str
    findings: tuple[Finding, ...]
    problem: str | None = None  # why the file could not be checked
    cells: tuple[int, ...] = ()  # for a notebook: the cell index of each finding, in order
    unparsed: tuple[int, ...] = ()  # for a notebook: cells skipped because they do not parse

    def cell_of(self, index: int) -> int | None:
        return self.cells[index] if index < len(self.cells) else None


def python_files(paths: Sequence[str]) -> Iterator[tuple[str, str | None]]:
    """(path, problem) for each file: given files as they are, directories recursed for *.py
    and *.ipynb."""
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for found in sorted([*path.rglob("*.py"), *path.rglob("*.ipynb")]):
                parts = found.relative_to(path).parts[:-1]
                if any(p.startswith(".") or p in _SKIPPED for p in parts):
                    continue
                if found.is_file():
                    yield str(found), None
        elif path.is_file():
            yield str(path), None
        else:
            yield given, "no such file or directory"


def _read(path: str) -> tuple[str | None, str]:
    """The file's text, or None and why it cannot be read."""
    try:
        return Path(path).read_bytes().decode("utf-8"), ""
    except OSError as exc:
        return None, exc.strerror or str(exc)
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 ({exc.reason} at byte {exc.start})"


def check_file(path: str, rules: Sequence[Rule] | None = None) -> Checked:
    if path.endswith(".ipynb"):
        return check_notebook(path, rules)
    source, problem = _read(path)
    if source is None:
        return Checked(path, (), problem)
    model = analyze(source)
    if model is None:
        return Checked(path, (), _syntax_problem(source))
    return Checked(path, tuple(check_model(model) if rules is None else check_model(model, rules)))


def check_notebook(path: str, rules: Sequence[Rule] | None = None) -> Checked:
    """The notebook's code cells as one program; a cell that does not parse is skipped (and
    said), the others are still checked."""
    from jaxerr_ls.tracebacks.ipynb import parse_notebook

    text, problem = _read(path)
    if text is None:
        return Checked(path, (), problem)
    parsed = parse_notebook(text, path)
    if parsed is None:
        return Checked(path, (), "not a notebook (nbformat 4 JSON)")
    cells = [(str(cell.index), cell.source) for cell in parsed.notebook.code_cells]
    found = check_cells(cells, rules)
    return Checked(
        path,
        tuple(f for _, f in found),
        cells=tuple(int(key) for key, _ in found),
        unparsed=tuple(int(key) for key in join_cells(cells).unparsed),
    )


def _syntax_problem(source: str) -> str:
    try:
        compile(source, "<checked>", "exec", dont_inherit=True, flags=0x400)  # PyCF_ONLY_AST
    except SyntaxError as exc:
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    except (ValueError, RecursionError, MemoryError) as exc:
        return f"cannot parse: {exc}"
    return "cannot parse"


def _line(checked: Checked, finding: Finding, cell: int | None = None) -> str:
    message = " ".join(finding.message.split())
    where = checked.path if cell is None else f"{checked.path}:cell {cell + 1}"
    return f"{where}:{finding.line + 1}:{finding.column + 1}: {finding.entry} {message}"


def run_check(
    paths: Sequence[str],
    as_json: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
    jax_version: str | None = None,
    fix: bool = False,
) -> int:
    """`jax_version`: the release the API-history rule checks against (None: installed JAX,
    else the newest catalogued); `fix`: first apply the safe renames of removed names."""
    out = out or sys.stdout
    err = err or sys.stderr
    from jaxerr_ls.upgrades.apply import resolve_release

    release, release_problem = resolve_release(jax_version)
    if release_problem:
        print(f"jaxerr-ls check: {release_problem}", file=err)
        return 2
    rules = rules_for(release)
    results: list[Checked] = []
    for path, problem in python_files(paths or ["."]):
        if problem is None and fix and path.endswith(".ipynb"):
            print(f"{path}: not fixed (--fix edits .py files only)", file=err)
        elif problem is None and fix:
            from jaxerr_ls.upgrades.apply import fix_file

            said = fix_file(Path(path), release)
            if said:
                print(f"{path}: {said}", file=err)
        results.append(Checked(path, (), problem) if problem else check_file(path, rules))
    unreadable = [c for c in results if c.problem]
    for checked in results:
        for cell in checked.unparsed:
            print(
                f"jaxerr-ls check: {checked.path}: cell {cell + 1} does not parse (skipped; the "
                "other cells were checked)",
                file=err,
            )
    for checked in unreadable:
        print(f"jaxerr-ls check: {checked.path}: {checked.problem}", file=err)
    if as_json:
        items = [
            {
                "path": c.path,
                **({} if c.cell_of(n) is None else {"cell": c.cell_of(n)}),
                "line": f.line + 1,
                "column": f.column + 1,
                "entry": f.entry,
                "message": f.message,
            }
            for c in results
            for n, f in enumerate(c.findings)
        ]
        out.write(json.dumps(items, indent=1) + "\n")
    else:
        for checked in results:
            for n, finding in enumerate(checked.findings):
                out.write(_line(checked, finding, checked.cell_of(n)) + "\n")
    if unreadable:
        return 2
    return 1 if any(c.findings for c in results) else 0
