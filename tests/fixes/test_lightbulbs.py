"""No lightbulb without a reason: on correct library code (optax, equinox, diffrax, pinned wheels
from the package index), code actions at a cursor with no diagnostic and no selection offer
(almost) nothing. Before issue 11 the same 20,039 positions offered 989 edits (800 "Wrap with
jax.jit"). The pure core the server's code actions call is measured directly."""

from __future__ import annotations

from collections import Counter

import pytest

from jaxerr_ls.catalog import load_catalog
from jaxerr_ls.fixes.offer import refactorings
from tests.library_code import required_library_files

LIBRARIES = ("optax", "equinox", "diffrax")
LINES_PER_LIBRARY = 3_000  # code lines (not blank, not comments) from the first files, sorted
MAX_STRAY = 3  # the goal is zero

AT_RISK = """import jax
import jax.numpy as jnp


@jax.jit
def grid(n):
    return jnp.zeros((n, n))


print(grid(4))
"""


def _fixes_of(entry_id: str) -> tuple[str, ...]:
    entry = load_catalog().get(entry_id)
    return () if entry is None else tuple(entry.fixes)


def _offered(source: str, line: int, column: int, selected: bool = False) -> list[str]:
    found = refactorings(source, line, column, selected=selected, fixes_of=_fixes_of)
    return [p.title for p in found]


def test_at_risk_line_offers_its_fix_and_correct_lines_none() -> None:
    assert _offered(AT_RISK, 6, 8) == ["Mark 'n' as static (static_argnames)"]
    for line, text in enumerate(AT_RISK.splitlines()):
        if line != 6:
            assert _offered(AT_RISK, line, len(text) // 2) == [], text


def test_a_selection_offers_the_refactorings_recognised_there() -> None:
    source = "import jax\n\nf = jax.shard_map(body, mesh=m, in_specs=(), out_specs=())\n"
    assert _offered(source, 2, 4) == []
    assert "Wrap with jax.jit" in _offered(source, 2, 4, selected=True)


@pytest.mark.slow
def test_correct_library_code_shows_no_stray_lightbulbs() -> None:
    offered: Counter[str] = Counter()
    positions = 0
    for name in LIBRARIES:
        files = required_library_files(name)
        lines = 0
        for path in files:
            source = path.read_text(encoding="utf-8", errors="replace")
            for number, text in enumerate(source.splitlines()):
                code = text.strip()
                if not code or code.startswith("#"):
                    continue
                lines += 1
                indent = len(text) - len(code)
                for column in {indent, indent + len(code) // 2}:
                    positions += 1
                    for title in _offered(source, number, column):
                        offered[f"{path.name}:{number + 1}: {title}"] += 1
            if lines >= LINES_PER_LIBRARY:
                break
    print(f"\n{positions} cursor positions, {sum(offered.values())} edits offered")
    for where, count in offered.most_common():
        print(f"  {where} x{count}")
    assert positions > 2 * LINES_PER_LIBRARY * len(LIBRARIES) * 0.9
    assert sum(offered.values()) <= MAX_STRAY, offered
