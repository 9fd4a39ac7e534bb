"""The central rules and the text helpers: edits, positions, the registry, bad input."""

from __future__ import annotations

import pytest

from jaxerr_ls.edits.text import combine, map_position, sorted_disjoint
from jaxerr_ls.fixes import FIXES, FixContext, ProposedFix, TextEdit, apply_edits, fixes_for
from jaxerr_ls.fixes import _checked as checked

ALL_IDS = [
    "wrap-jit",
    "mark-static",
    "at-set",
    "numpy-to-jnp",
    "int-to-float-literal",
    "list-to-tuple",
    "int-seed-to-key",
    "has-aux",
    "list-to-asarray",
    "lax-to-jnp",
    "split-to-array-split",
    "if-to-where",
    "grad-to-jacobian",
    "pass-ref-not-value",
    "dynamic-slice",
    "mark-static-at-call",
    "jit-method-static-self",
    "cond-to-where",
    "mask-reduce-where",
    "static-loop-bounds",
    "api-rename",
    "static-literal-args",
]


def test_registry_holds_every_fix_under_its_id() -> None:
    assert sorted(FIXES) == sorted(ALL_IDS)
    for fix_id, fix in FIXES.items():
        assert fix.id == fix_id


def test_safety_flags() -> None:
    unsafe = {fix_id for fix_id, fix in FIXES.items() if not fix.safe}
    assert unsafe == {
        "has-aux",
        "lax-to-jnp",
        "split-to-array-split",
        "if-to-where",
        "grad-to-jacobian",
        "dynamic-slice",
        "cond-to-where",
    }


def test_apply_edits_code_point_columns_after_emoji() -> None:
    source = "s = '🎉'; x = 1\ny = 2\n"
    edit = TextEdit(0, 13, 0, 14, "3")
    assert apply_edits(source, [edit]) == "s = '🎉'; x = 3\ny = 2\n"


def test_apply_edits_any_order_and_crlf() -> None:
    source = "a = 1\r\nb = 2\r\n"
    edits = [TextEdit(1, 4, 1, 5, "20"), TextEdit(0, 0, 0, 0, "# top\r\n")]
    assert apply_edits(source, edits) == "# top\r\na = 1\r\nb = 20\r\n"


def test_apply_edits_clamps_out_of_range_positions() -> None:
    assert apply_edits("ab\n", [TextEdit(0, 10, 5, 0, "!")]) == "ab!"


def test_sorted_disjoint() -> None:
    ins = TextEdit(0, 0, 0, 0, "x")
    rep = TextEdit(0, 0, 0, 2, "y")
    later = TextEdit(0, 2, 0, 3, "z")
    assert sorted_disjoint([ins, rep, later])
    assert not sorted_disjoint([rep, ins])
    assert not sorted_disjoint([ins, ins])
    assert not sorted_disjoint([TextEdit(0, 0, 0, 3, ""), later])
    assert not sorted_disjoint([TextEdit(0, 3, 0, 1, "")])


def test_combine_merges_insertions_at_one_point_in_order() -> None:
    merged = combine(
        [TextEdit(1, 0, 1, 0, "b"), TextEdit(0, 0, 0, 0, "a"), TextEdit(1, 0, 1, 0, "c")]
    )
    assert merged == (TextEdit(0, 0, 0, 0, "a"), TextEdit(1, 0, 1, 0, "bc"))


def test_map_position_follows_inserted_lines() -> None:
    source = "x = 1\ny = 2\n"
    edits = [TextEdit(0, 0, 0, 0, "import jax\n"), TextEdit(1, 4, 1, 5, "22")]
    assert map_position(source, edits, 1, 0) == (2, 0)
    assert map_position(source, edits, 1, 5) == (2, 6)


class _Broken:
    id = "broken"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        raise RuntimeError("bug in a fix")


class _Constant:
    """Proposes the same edit whatever the text: used to probe the central rules."""

    id = "constant"
    safe = True

    def __init__(self, *edits: TextEdit) -> None:
        self.edits = edits

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        return ProposedFix(self.id, "t", True, self.edits)


def _ctx(source: str) -> FixContext:
    return FixContext(source, 0, None, {}, "e")


def test_a_fix_that_raises_is_not_offered() -> None:
    assert checked(_Broken(), _ctx("x = 1\n")) is None


def test_a_result_that_does_not_parse_is_not_offered() -> None:
    assert checked(_Constant(TextEdit(0, 0, 0, 0, "(")), _ctx("x = 1\n")) is None


def test_a_no_op_is_not_offered() -> None:
    assert checked(_Constant(TextEdit(0, 0, 0, 1, "x")), _ctx("x = 1\n")) is None


def test_a_fix_that_would_apply_again_is_not_offered() -> None:
    # Inserting "# c\n" at the top applies again on its own result: not idempotent.
    assert checked(_Constant(TextEdit(0, 0, 0, 0, "# c\n")), _ctx("x = 1\n")) is None


def test_overlapping_edits_are_not_offered() -> None:
    fix = _Constant(TextEdit(0, 0, 0, 3, "a"), TextEdit(0, 2, 0, 4, "b"))
    assert checked(fix, _ctx("x = 1\n")) is None


def test_unknown_ids_are_ignored_and_duplicates_collapse() -> None:
    source = "import numpy as np\ny = np.sin(x)\n"
    ctx = FixContext(source, 1, None, {}, "e")
    found = fixes_for(["nope", "numpy-to-jnp", "numpy-to-jnp"], ctx)
    assert [p.fix_id for p in found] == ["numpy-to-jnp"]


def test_unparseable_document_only_gets_fixes_that_do_not_add_errors() -> None:
    source = "import numpy as np\ny = np.sin(x)\ndef broken(:\n"
    found = fixes_for(["numpy-to-jnp"], FixContext(source, 1, None, {}, "e"))
    assert [apply_edits(source, p.edits) for p in found] == [
        "import numpy as np\nimport jax.numpy as jnp\ny = jnp.sin(x)\ndef broken(:\n"
    ]


ODD_SOURCES = [
    "",
    "\n\n",
    "x = (",
    "def f(:\n  return",
    "\x00",
    "🎉" * 50,
    "if x:\n\tpass\n  else",
    "(" * 300 + ")" * 300,
    "x[",
    "@\n",
]


@pytest.mark.parametrize("source", ODD_SOURCES)
@pytest.mark.parametrize("line", [-1, 0, 1, 99])
def test_bad_input_never_raises(source: str, line: int) -> None:
    ctx = FixContext(source, line, 3, {"name": "n", "argnum": "x"}, "e")
    assert isinstance(fixes_for(ALL_IDS, ctx), list)
    for fix in FIXES.values():
        fix.propose(ctx)  # the fixes themselves decline rather than raise
