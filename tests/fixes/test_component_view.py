"""Fixes that read the file through names only (`local`) are checked on their line's component
(`analysis.units.view_of_line`, issue 20): on a 2,000-line file the refactoring offered on a warned
line, and its edit, are those of the check on the whole text; where an edit says a name the rest
of the file says, the whole text decides."""

from __future__ import annotations

from types import MappingProxyType

from jaxerr_ls.analysis.units import view_of_line
from jaxerr_ls.catalog import load_catalog
from jaxerr_ls.fixes import FIXES, _check, _check_whole, forget_texts
from jaxerr_ls.fixes.base import FixContext, TextEdit
from jaxerr_ls.fixes.offer import refactorings
from jaxerr_ls.rules import check_source

HEADER = "import jax\nimport jax.numpy as jnp\nfrom functools import partial\n\n"
BLOCK = """
@partial(jax.jit, static_argnums=1)
def step_{n}(x, n):
    total = jnp.sum(x)
    return total + jnp.zeros(n).sum()

"""


def large_file() -> str:
    source = HEADER + "".join(BLOCK.format(n=n) for n in range(340))
    return source + "f = jax.vmap(step_0)\n"


def test_the_refactoring_on_a_warned_line_of_a_large_file_is_the_whole_checks() -> None:
    catalog = load_catalog()
    source = large_file()
    assert len(source.splitlines()) > 2000
    line = source.splitlines().index("    return total + jnp.zeros(n).sum()")
    found = [f for f in check_source(source) if f.line <= line <= f.end_line]
    assert found, "the rules warn on the first block's `jnp.zeros(n)`"

    def fixes_of(entry: str) -> tuple[str, ...]:
        got = catalog.get(entry)
        return () if got is None else tuple(got.fixes)

    offered = refactorings(source, line, 19, selected=False, fixes_of=fixes_of, findings=found)
    assert [p.fix_id for p in offered] == ["mark-static"]
    assert offered[0].edits == (TextEdit(5, 34, 5, 34, ', static_argnames=("n",)'),)
    for finding in found:  # each fix the entry lists: as the check on the whole text has it
        ctx = FixContext(source, finding.line, None, finding.fields, finding.entry)
        for fix_id in fixes_of(finding.entry):
            assert _check(FIXES[fix_id], ctx) == _check_whole(FIXES[fix_id], ctx), fix_id
    forget_texts()


def test_the_view_keeps_lines_and_blanks_other_components() -> None:
    source = large_file()
    lines = source.splitlines()
    line = lines.index("def step_1(x, n):")
    view = view_of_line(source, line)
    assert view is not None
    seen = view.text.splitlines()
    assert len(seen) == len(lines)
    kept = [k for k, text in enumerate(seen) if text]
    assert all(seen[k] == lines[k] for k in kept)
    assert "def step_1(x, n):" in seen and "def step_0(x, n):" not in seen
    assert seen[:3] == lines[:3]  # the imports: every component reads them
    assert "step_0" in view.outside


def test_no_view_where_the_file_cannot_be_split() -> None:
    local = "import jax\n\ndef f(x):\n    import numpy\n    return x\n"
    assert view_of_line(local, 2) is None
    assert view_of_line("def f(:\n", 0) is None
    assert view_of_line("import jax\n\n\nx = 1\n", 1) is None  # a blank line between units


def test_an_edit_saying_a_name_the_other_lines_say_is_checked_whole() -> None:
    source = (
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x, n):\n"
        "    return jnp.zeros(n) + x\n\n\ndef partial(a):\n    return a\n"
    )
    ctx = FixContext(source, 6, None, MappingProxyType({"name": "n"}), "x")
    fix = FIXES["mark-static"]
    # On the view alone `partial` is free: the fix would import it over the file's own.
    alone = FixContext(view_of_line(source, 6).text, 6, None, ctx.fields, "x")  # type: ignore[union-attr]
    assert _check_whole(fix, alone) is not None
    assert _check(fix, ctx) is None
    assert _check_whole(fix, ctx) is None
    renamed = source.replace("def partial(a)", "def other(a)")
    ctx = FixContext(renamed, 6, None, ctx.fields, "x")
    assert _check(fix, ctx) == _check_whole(fix, ctx) is not None
