"""Fixes for JAX errors: pure functions from the document's text to minimal edits.

Every fix lives in its own module and is registered in `FIXES`. The rules every offered fix must
pass are enforced here, once: its result parses, it changes the text, and proposing it again on
the fixed text changes nothing. A fix that raises or breaks a rule is simply not offered.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import tokenize
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from jaxerr_ls.edits.text import apply_edits, map_position, sorted_disjoint
from jaxerr_ls.fixes import (
    api_rename,
    at_set,
    cond_to_where,
    dynamic_slice,
    grad_to_jacobian,
    has_aux,
    if_to_where,
    int_seed_to_key,
    int_to_float_literal,
    jit_method_self,
    lax_to_jnp,
    list_to_asarray,
    list_to_tuple,
    mark_static,
    mask_reduce_where,
    numpy_to_jnp,
    pass_ref_not_value,
    split_to_array_split,
    static_at_call,
    static_literal_args,
    static_loop_bounds,
    wrap_jit,
)
from jaxerr_ls.fixes.base import Fix, FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.syntax import error_count

__all__ = [
    "FIXES",
    "Fix",
    "FixContext",
    "ProposedFix",
    "TextEdit",
    "apply_edits",
    "fixes_at_cursor",
    "fixes_for",
    "preferred",
]

_ALL: tuple[Fix, ...] = (
    wrap_jit.FIX,
    mark_static.FIX,
    at_set.FIX,
    numpy_to_jnp.FIX,
    int_to_float_literal.FIX,
    list_to_tuple.FIX,
    int_seed_to_key.FIX,
    has_aux.FIX,
    list_to_asarray.FIX,
    lax_to_jnp.FIX,
    split_to_array_split.FIX,
    if_to_where.FIX,
    grad_to_jacobian.FIX,
    pass_ref_not_value.FIX,
    dynamic_slice.FIX,
    static_at_call.FIX,
    jit_method_self.FIX,
    cond_to_where.FIX,
    mask_reduce_where.FIX,
    static_loop_bounds.FIX,
    api_rename.FIX,
    static_literal_args.FIX,
)

FIXES: Mapping[str, Fix] = MappingProxyType({fix.id: fix for fix in _ALL})


def fixes_for(fix_ids: Sequence[str], ctx: FixContext) -> list[ProposedFix]:
    """The entry's fixes, in the entry's order, that apply here and pass the rules."""
    found: list[ProposedFix] = []
    for fix_id in dict.fromkeys(fix_ids):
        fix = FIXES.get(fix_id)
        proposed = None if fix is None else _checked(fix, ctx)
        if proposed is not None:
            found.append(proposed)
    return found


def preferred(proposals: Sequence[ProposedFix]) -> ProposedFix | None:
    """The fix to put first: the first safe one the file's code shows it needs, else the first
    safe one, else the first offered (it still answers the error; its title says how it changes
    behaviour)."""
    for wanted in (lambda p: p.safe and p.fits_file, lambda p: p.safe, lambda p: True):
        found = next((p for p in proposals if wanted(p)), None)
        if found is not None:
            return found
    return None


def fixes_at_cursor(ctx: FixContext) -> list[ProposedFix]:
    """Every fix whose pattern is recognised at the cursor, with no diagnostic (refactorings)."""
    plain = dataclasses.replace(ctx, entry_id=None, fields=MappingProxyType({}))
    return [p for fix in _ALL if (p := _checked(fix, plain)) is not None]


def _checked(fix: Fix, ctx: FixContext) -> ProposedFix | None:
    # Editors ask again on every cursor move: remember answers for unchanged text.
    if FIXES.get(fix.id) is not fix:
        return _check(fix, ctx)
    fields = tuple(sorted((str(k), str(v)) for k, v in ctx.fields.items()))
    return _checked_cached(fix.id, ctx.source, ctx.line, ctx.column, fields, ctx.entry_id)


@lru_cache(maxsize=256)
def _checked_cached(
    fix_id: str,
    source: str,
    line: int,
    column: int | None,
    fields: tuple[tuple[str, str], ...],
    entry_id: str | None,
) -> ProposedFix | None:
    ctx = FixContext(source, line, column, MappingProxyType(dict(fields)), entry_id)
    return _check(FIXES[fix_id], ctx)


def _check(fix: Fix, ctx: FixContext) -> ProposedFix | None:
    if getattr(fix, "local", False):
        try:
            found = _check_in_view(fix, ctx)
        except Exception:  # noqa: BLE001 - as below: not offered
            return None
        if found is not _WHOLE:
            return found if isinstance(found, ProposedFix) else None
    return _check_whole(fix, ctx)


_WHOLE = object()  # the view cannot answer: check on the whole text


def _check_in_view(fix: Fix, ctx: FixContext) -> ProposedFix | None | object:
    """A fix that reads the file only through names (`local`) checked on the view of its line's
    component (`analysis.units`): the same lines and columns, the other components' lines
    blank, so its parse and analysis, and those of the fixed text, cost a function's rather
    than the file's. Its edits then go to the whole text, which must parse. _WHOLE when the
    file cannot be split, or an edit says a name the blanked lines say (it could link them)."""
    from jaxerr_ls.analysis.units import view_of_line

    view = view_of_line(ctx.source, ctx.line)
    if view is None:
        return _WHOLE
    proposed = _check_whole(fix, dataclasses.replace(ctx, source=view.text))
    if proposed is None:
        return None
    said = _names_in(proposed.edits)
    if said is None or said & view.outside:
        return _WHOLE
    # The text parsed (it was split): the fixed text must parse too.
    return proposed if _parses(apply_edits(ctx.source, proposed.edits)) else None


def _names_in(edits: Sequence[TextEdit]) -> frozenset[str] | None:
    """The names the edits' texts say (not in strings); None when one does not tokenize."""
    names: set[str] = set()
    for edit in edits:
        try:
            for token in tokenize.generate_tokens(io.StringIO(edit.new_text).readline):
                if token.type == tokenize.NAME:
                    names.add(token.string)
        except (tokenize.TokenError, SyntaxError):
            return None
    return frozenset(names)


def _check_whole(fix: Fix, ctx: FixContext) -> ProposedFix | None:
    try:
        proposed = fix.propose(ctx)
        if proposed is None or not proposed.edits or not sorted_disjoint(proposed.edits):
            return None
        fixed = apply_edits(ctx.source, proposed.edits)
        if fixed == ctx.source or not _parses_as_well(ctx.source, fixed):
            return None
        if not _idempotent(fix, ctx, proposed.edits, fixed):
            return None
    except Exception:  # noqa: BLE001 - a fix that fails on odd input is just not offered
        return None
    return dataclasses.replace(proposed, fix_id=fix.id)


def forget_texts() -> None:
    """Drop what the fixes keep per text: parsed trees, the whole file's analysis, the checked
    proposals (~25 MB for a 2,000-line file, kept for each edited version until evicted). The
    language server calls it after a large file's code actions: its analysis is the worker's."""
    import sys

    from jaxerr_ls.fixes import imports, syntax

    caches: list[Any] = [_checked_cached, _parses, syntax._parse_raw, syntax.index]
    caches += [syntax.error_count, imports.scan_imports]
    offer = sys.modules.get("jaxerr_ls.fixes.offer")
    build = sys.modules.get("jaxerr_ls.analysis.build")
    units = sys.modules.get("jaxerr_ls.analysis.units")
    caches += [m._split for m in (units,) if m is not None]
    caches += [m._findings for m in (offer,) if m is not None]
    caches += [m._analyze_cached for m in (build,) if m is not None]
    for cache in caches:
        cache.cache_clear()


@lru_cache(maxsize=32)
def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _parses_as_well(before: str, after: str) -> bool:
    if _parses(before):
        return _parses(after)
    # The document is mid-edit: accept only when parso finds no more errors than before.
    return error_count(after) <= error_count(before)


def _idempotent(fix: Fix, ctx: FixContext, edits: Sequence[TextEdit], fixed: str) -> bool:
    lines = ctx.source.splitlines()
    text = lines[ctx.line] if 0 <= ctx.line < len(lines) else ""
    column = ctx.column if ctx.column is not None else len(text) - len(text.lstrip())
    line, col = map_position(ctx.source, edits, ctx.line, column)
    again = dataclasses.replace(
        ctx, source=fixed, line=line, column=col if ctx.column is not None else None
    )
    second = fix.propose(again)
    return second is None or apply_edits(fixed, second.edits) == fixed
