"""`if-to-where`: a Python branch on a traced condition -> `jnp.where(c, a, b)`.

Handles `if c: y = a / else: y = b`, `if c: return a / else: return b`, `if c: return a` followed
by `return b`, and the conditional expression `a if c else b`, when each branch is one expression.

Unsafe in general: `jnp.where` evaluates both branches (side effects run, an untaken branch's NaN
can leak into gradients) and broadcasts/promotes them to one shape and dtype. The title says so.
Safe when the condition and both branches evaluate safely either way (names, numbers, `+ - *`,
comparisons, indexing, total element-wise functions such as `jnp.zeros_like`: see `pure`): then
each element gets what the `if` gives it, values and gradients alike. Branches
holding comments are left alone rather than dropping the comments.
"""

from __future__ import annotations

import dataclasses

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import File, jnp_file, proposal, replace
from jaxerr_ls.fixes.pure import evaluates_safely
from jaxerr_ls.fixes.syntax import (
    Node,
    Pos,
    contains,
    funcdef_name,
    funcdefs_at,
    header_nodes,
    statement_at,
)
from jaxerr_ls.fixes.usage import function_defined_at, model_of, passed_unhashable

_TITLE = "Use jnp.where (changes behaviour: evaluates both branches)"
_SAFE_TITLE = "Use jnp.where (element-wise choice)"
_NEEDS_PARENS = frozenset({"testlist", "testlist_star_expr", "namedexpr_test", "lambdef"})


def _expr(node: Node) -> str:
    code = node.code()
    return f"({code})" if node.type in _NEEDS_PARENS else code


def _only_statement(body: Node) -> Node | None:
    """The single small statement of a branch body (a suite or an inline simple_stmt)."""
    stmts = [c for c in body.children if c.type != "newline"] if body.type == "suite" else [body]
    if len(stmts) != 1 or stmts[0].type != "simple_stmt":
        return None
    small = [c for c in stmts[0].children if c.type != "newline" and not c.is_op(";")]
    return small[0] if len(small) == 1 else None


def _branch(stmt: Node | None) -> tuple[str, Node] | None:
    """("return", value) or ("y", value) for `y = value`."""
    if stmt is None:
        return None
    kids = stmt.children
    if stmt.type == "return_stmt" and len(kids) == 2:
        found = ("return", kids[1])
    elif stmt.type == "expr_stmt" and len(kids) == 3 and kids[1].is_op("=") and kids[0].is_name():
        found = (kids[0].value, kids[2])
    else:
        return None
    # jnp.where would stack a tuple into one array: a different result, not a faithful rewrite.
    return None if found[1].type in ("testlist", "testlist_star_expr") else found


def _has_comment(node: Node, start: Pos) -> bool:
    return any(leaf.is_leaf and leaf.start > start and "#" in leaf.prefix for leaf in node.walk())


def _statement_forms(file: File, where: str) -> tuple[Pos, Pos, str, tuple[Node, ...]] | None:
    stmt = statement_at(file.module, file.line)
    for node in (stmt,) if stmt is not None else ():
        if node.type != "if_stmt" or node.start[0] != file.line:
            continue
        kids = node.children
        cond = _expr(kids[1])
        first = _branch(_only_statement(kids[3]))
        if first is None:
            return None
        if len(kids) == 7 and kids[4].is_op("else"):
            second = _branch(_only_statement(kids[6]))
            last = kids[6]
        elif len(kids) == 4 and first[0] == "return":
            block = node.parent
            following = None
            if block is not None:
                siblings = block.children
                index = next(i for i, c in enumerate(siblings) if c == node)
                following = siblings[index + 1] if index + 1 < len(siblings) else None
            second = _branch(_only_statement(following)) if following is not None else None
            last = following if following is not None else node
        else:
            return None
        if second is None or second[0] != first[0] or not file.cursor_in(node.start, node.end):
            return None
        end = _code_end(last)
        if _has_comment(node, node.start) or (last != kids[-1] and "#" in last.prefix):
            return None
        if last != kids[-1] and _has_comment(last, last.start):
            return None
        call = f"{where}({cond}, {_expr(first[1])}, {_expr(second[1])})"
        head = "return " if first[0] == "return" else f"{first[0]} = "
        return node.start, end, head + call, (kids[1], first[1], second[1])
    return None


def _code_end(node: Node) -> Pos:
    """End of the node's last code leaf (before its newline)."""
    leaves = [
        leaf for leaf in node.walk() if leaf.is_leaf and leaf.type not in ("newline", "endmarker")
    ]
    return leaves[-1].end if leaves else node.end


def _ternary(file: File, where: str) -> tuple[Pos, Pos, str, tuple[Node, ...]] | None:
    stmt = statement_at(file.module, file.line)
    parts = header_nodes(stmt) if stmt is not None else ()
    for node in (n for part in parts for n in part.walk()):
        kids = node.children
        if node.type == "test" and len(kids) == 5 and contains(node, file.line):
            if not file.cursor_in(node.start, node.end) or _has_comment(node, node.start):
                continue
            text = f"{where}({_expr(kids[2])}, {_expr(kids[0])}, {_expr(kids[4])})"
            return node.start, node.end, text, (kids[0], kids[2], kids[4])
    return None


class _IfToWhere:
    id = "if-to-where"
    safe = False

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = jnp_file(ctx)
        if file is None:
            return None
        where = f"{file.jnp.text}.where"
        found = _statement_forms(file, where) or _ternary(file, where)
        if found is None:
            return None
        start, end, text, parts = found
        edits: list[TextEdit] = [replace(start, end, text)]
        safe = all(evaluates_safely(file, part) for part in parts)
        found_fix = proposal(
            self.id, _SAFE_TITLE if safe else _TITLE, safe, edits, file.imports, file.jnp
        )
        if found_fix is not None and _chooses_on_arrays(file, parts[0]):
            found_fix = dataclasses.replace(found_fix, fits_file=True)
        return found_fix


def _chooses_on_arrays(file: File, condition: Node) -> bool:
    """Whether the condition reads a parameter the file's calls pass an array (or a list): a
    choice per element, where marking static cannot help."""
    model = model_of(file.source)
    functions = funcdefs_at(file.module, file.line)
    if model is None or not functions:
        return False
    traced = function_defined_at(model, functions[0].start[0] - 1, funcdef_name(functions[0]))
    if traced is None:
        return False
    names = {leaf.value for leaf in condition.walk() if leaf.is_name()}
    return any(passed_unhashable(model, traced, p.name) for p in traced.params if p.name in names)


FIX = _IfToWhere()
