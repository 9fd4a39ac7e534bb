"""Every message a variable may hold where it is raised.

JAX often words a message on several paths before one raise: `if ...: msg = A` / `else: msg =
B`, then `raise TypeError(msg)` (the strict dtype promotion error), or a base message grown
under a test, `msg += " (Tip: ...)"` (lax's same-dtypes check). One assignment reaching the
raise gives one template (`walk._lookup`); these give one template per path.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Blocks = tuple[int, ...]  # ids of the statement lists enclosing a node, outermost first

# Paths followed per raise: a few branches each with an optional tip stay well inside it.
MAX_VARIANTS = 8


@dataclass(frozen=True)
class Binding:
    line: int
    value: ast.expr | None  # the value of a plain `name = value` (or of `name += value`)
    blocks: Blocks
    augmented: bool = False  # `name += value`: the value is appended to what name held

    def encloses(self, blocks: Blocks) -> bool:
        """This binding's block encloses a statement in `blocks` (not a sibling branch)."""
        return blocks[: len(self.blocks)] == self.blocks


def exclusive(one: Blocks, other: Blocks, owners: Mapping[int, int]) -> bool:
    """Two blocks no run passes both of: branches of one statement (an `if`'s body and its
    `else`, where an `elif` lives). `owners`: statement list -> the statement owning it."""
    for mine, theirs in zip(one, other, strict=False):
        if mine != theirs:
            owner = owners.get(mine)
            return owner is not None and owner == owners.get(theirs)
    return False


def reaching(
    bindings: Sequence[Binding], line: int, blocks: Blocks, owners: Mapping[int, int]
) -> list[ast.expr]:
    """The values a name may hold at `line` (in `blocks`), from its bindings in the same
    function: the nearest enclosing assignment ends the walk back; one in a sibling branch is a
    path of its own, and the walk goes on before it for the paths that did not take it; one in
    a branch exclusive of the place asked about never reaches it. An unknown binding (a loop
    target, an unpacking) ends the walk with no answer ([])."""
    before = sorted((b for b in bindings if b.line < line), key=lambda b: b.line)
    return _reaching(before, blocks, owners)


def _reaching(before: list[Binding], blocks: Blocks, owners: Mapping[int, int]) -> list[ast.expr]:
    live = [b for b in before if not exclusive(b.blocks, blocks, owners)]
    if not live:
        return []
    nearest, rest = live[-1], live[:-1]
    if nearest.value is None:
        return []
    if nearest.augmented:
        grown: list[ast.expr] = [
            ast.BinOp(left=held, op=ast.Add(), right=nearest.value)
            for held in _reaching(rest, nearest.blocks, owners)
        ]
        if not grown:
            return []
        passed = (
            [] if nearest.encloses(blocks) else _reaching(_outside(rest, nearest), blocks, owners)
        )
        return [*grown, *passed][:MAX_VARIANTS]
    if nearest.encloses(blocks):
        return [nearest.value]
    others = _reaching(_outside(rest, nearest), blocks, owners)
    return [nearest.value, *others][:MAX_VARIANTS]


def _outside(bindings: list[Binding], skipped: Binding) -> list[Binding]:
    """The bindings a run that did not enter `skipped`'s block may have passed."""
    depth = len(skipped.blocks)
    return [b for b in bindings if b.blocks[:depth] != skipped.blocks]
