"""The `if`/`elif`/`else` tests that guard each `raise` inside its function, as source text.

Only statements are walked (expressions never hold a raise), and a nested `def`/`class` starts
afresh: its body runs when called, not under the tests around its definition. Test text is
`ast.unparse` of JAX's own expression — a fact about the source — cut to `CONDITION_LIMIT`.
"""

from __future__ import annotations

import ast

CONDITION_LIMIT = 160

Guard = tuple[ast.expr, bool]  # (test, negated)


def raise_guards(tree: ast.Module, calls: frozenset[int] = frozenset()) -> dict[int, str]:
    """id(raise node) -> its condition ("" when nothing guards it), and likewise for `assert`
    statements (their failing test included); also for the calls whose
    ids are in `calls` when each is a statement of its own (`warnings.warn(...)`: `warns.py`)."""
    out: dict[int, str] = {}
    todo: list[tuple[list[ast.stmt], tuple[Guard, ...]]] = [(tree.body, ())]
    while todo:
        body, guards = todo.pop()
        for node in body:
            if isinstance(node, ast.Raise):
                out[id(node)] = condition_text(guards)
            elif isinstance(node, ast.Assert):
                # It raises when its test fails: the test, negated, is one more guard (none for
                # `assert False, msg`).
                failing = isinstance(node.test, ast.Constant) and not node.test.value
                out[id(node)] = condition_text(guards if failing else (*guards, (node.test, True)))
            elif isinstance(node, ast.Expr) and id(node.value) in calls:
                out[id(node.value)] = condition_text(guards)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                todo.append((node.body, ()))
            elif isinstance(node, ast.If):
                todo.append((node.body, (*guards, (node.test, False))))
                if node.orelse:
                    # `elif` and `else: if` parse alike; an `elif` starts in the column of its `if`.
                    first = node.orelse[0]
                    elif_ = isinstance(first, ast.If) and first.col_offset == node.col_offset
                    # An `elif` states its own test; a plain `else` is the negated test.
                    todo.append((node.orelse, guards if elif_ else (*guards, (node.test, True))))
            else:
                for name in ("body", "orelse", "finalbody"):
                    inner = getattr(node, name, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                        todo.append((inner, guards))
                for handler in getattr(node, "handlers", ()):
                    todo.append((handler.body, guards))
                for case in getattr(node, "cases", ()):
                    todo.append((case.body, guards))
    return out


def condition_text(guards: tuple[Guard, ...]) -> str:
    parts = [_one(test, negated) for test, negated in guards]
    text = " and ".join(f"({p})" if len(parts) > 1 and " or " in p else p for p in parts)
    text = " ".join(text.split())
    if len(text) > CONDITION_LIMIT:
        cut = text[: CONDITION_LIMIT - 1]
        text = (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"
    return text


def _one(test: ast.expr, negated: bool) -> str:
    text = ast.unparse(test)
    if not negated:
        return text
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return ast.unparse(test.operand)
    if isinstance(test, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return f"not {text}"
    return f"not ({text})"
