"""`jaxerr-ls check [PATH ...] [--json]`: the predictive rules over files, printed as linters do.

`path:line:col: <entry-id> <message>` per finding (1-based), or with `--json` a list of
`{"path", "line", "column", "entry", "message"}`. Exit 1 with findings, 0 without, 2 when an
input cannot be read or parsed (the others are still checked).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from jaxerr_ls.analysis import analyze
from jaxerr_ls.rules import Finding, check_model

# Directories a linter skips: virtual environments, caches, VCS metadata.
_SKIPPED = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})


@dataclass(frozen=True)
class Checked:
    path: str
    findings: tuple[Finding, ...]
    problem: str | None = None  # why the file could not be checked


def python_files(paths: Sequence[str]) -> Iterator[tuple[str, str | None]]:
    """(path, problem) for each file: given files as they are, directories recursed for *.py."""
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for found in sorted(path.rglob("*.py")):
                parts = found.relative_to(path).parts[:-1]
                if any(p.startswith(".") or p in _SKIPPED for p in parts):
                    continue
                if found.is_file():
                    yield str(found), None
        elif path.is_file():
            yield str(path), None
        else:
            yield given, "no such file or directory"


def check_file(path: str) -> Checked:
    try:
        source = Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        return Checked(path, (), exc.strerror or str(exc))
    except UnicodeDecodeError as exc:
        return Checked(path, (), f"not UTF-8 ({exc.reason} at byte {exc.start})")
    model = analyze(source)
    if model is None:
        return Checked(path, (), _syntax_problem(source))
    return Checked(path, tuple(check_model(model)))


def _syntax_problem(source: str) -> str:
    try:
        compile(source, "<checked>", "exec", dont_inherit=True, flags=0x400)  # PyCF_ONLY_AST
    except SyntaxError as exc:
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    except (ValueError, RecursionError, MemoryError) as exc:
        return f"cannot parse: {exc}"
    return "cannot parse"


def _line(checked: Checked, finding: Finding) -> str:
    message = " ".join(finding.message.split())
    return f"{checked.path}:{finding.line + 1}:{finding.column + 1}: {finding.entry} {message}"


def run_check(
    paths: Sequence[str], as_json: bool, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    results: list[Checked] = []
    for path, problem in python_files(paths or ["."]):
        results.append(Checked(path, (), problem) if problem else check_file(path))
    unreadable = [c for c in results if c.problem]
    for checked in unreadable:
        print(f"jaxerr-ls check: {checked.path}: {checked.problem}", file=err)
    if as_json:
        items = [
            {
                "path": c.path,
                "line": f.line + 1,
                "column": f.column + 1,
                "entry": f.entry,
                "message": f.message,
            }
            for c in results
            for f in c.findings
        ]
        out.write(json.dumps(items, indent=1) + "\n")
    else:
        for checked in results:
            for finding in checked.findings:
                out.write(_line(checked, finding) + "\n")
    if unreadable:
        return 2
    return 1 if any(c.findings for c in results) else 0
