"""Edit sequences over a real file, for comparing the incremental checker with a from-scratch
check at every step: delete a top-level statement (and undo), duplicate one (a redefinition),
jit a function from the end of the file (and take it back), pass it a string, insert a line
between statements, cut a line short (often a text that does not parse), join two lines."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator

from jaxerr_ls.resolve import scan_imports


def _spans(source: str) -> list[tuple[int, int]] | None:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    out = []
    for statement in tree.body:
        decorators = getattr(statement, "decorator_list", [])
        first = min([statement.lineno, *(d.lineno for d in decorators)]) - 1
        out.append((first, (statement.end_lineno or statement.lineno) - 1))
    return out


def _functions(source: str) -> list[str]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [s.name for s in tree.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]


def edit_walk(source: str, steps: int, seed: int) -> Iterator[str]:
    """`source`, then `steps` edited texts (each edit on the text before it; an edit that makes a
    text that does not parse is undone by the next step)."""
    rng = random.Random(seed)
    jax = next((k for k, v in scan_imports(source).items() if v == "jax"), None)
    current = source
    good = source
    yield current
    for _ in range(steps):
        if _spans(current) is None:
            current = good  # undo the broken edit
            yield current
            continue
        good = current
        lines = current.splitlines(keepends=True)
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        spans = _spans(current) or []
        names = _functions(current)
        operation = rng.choice(["delete", "duplicate", "jit", "call", "insert", "cut", "join"])
        if operation == "delete" and spans:
            first, last = rng.choice(spans)
            lines[first : last + 1] = []
        elif operation == "duplicate" and spans:
            first, last = rng.choice(spans)
            lines += ["\n", *lines[first : last + 1]]
        elif operation == "jit" and names and jax is not None:
            lines.append(f"fast = {jax}.jit({rng.choice(names)})\n")
        elif operation == "call" and names:
            name = "fast" if "fast = " in current and rng.random() < 0.5 else rng.choice(names)
            lines.append(f'{name}(1, "text")\n')
        elif operation == "insert" and spans:
            first, _ = rng.choice(spans)
            lines.insert(first, rng.choice(["\n", "# a note\n", "x = 1\n"]))
        elif operation == "cut" and lines:
            at = rng.randrange(len(lines))
            text = lines[at].rstrip("\r\n")
            lines[at] = text[: rng.randrange(len(text) + 1)] + "\n"
        elif operation == "join" and len(lines) > 1:
            at = rng.randrange(len(lines) - 1)
            lines[at : at + 2] = [lines[at].rstrip("\r\n") + " " + lines[at + 1].lstrip()]
        current = "".join(lines)
        yield current
