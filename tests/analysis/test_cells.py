"""A notebook's code cells as one program: the joined text, the map back to each cell, IPython
lines blanked, cells that do not parse left out without breaking the others."""

from __future__ import annotations

import ast

from jaxerr_ls.analysis.cells import blank_ipython, join_cells, split_lines
from jaxerr_ls.rules import check_cells

IMPORTS = "import jax\nimport jax.numpy as jnp\n"
STEPS = "def steps(x, n):\n    for _ in range(n):\n        x = x + 1\n    return x\n"
JIT_IT = "fast = jax.jit(steps)\nfast(jnp.float32(0.0), 3)\n"


def test_lines_map_both_ways() -> None:
    joined = join_cells([("a", IMPORTS), ("b", STEPS), ("c", JIT_IT)])
    program = joined.source.splitlines()
    assert program == [*IMPORTS.splitlines(), *STEPS.splitlines(), *JIT_IT.splitlines()]
    assert [(c.key, c.start, c.end) for c in joined.cells] == [
        ("a", 0, 2),
        ("b", 2, 6),
        ("c", 6, 8),
    ]
    for key, source in (("a", IMPORTS), ("b", STEPS), ("c", JIT_IT)):
        for line, text in enumerate(source.splitlines()):
            at = joined.program_line(key, line)
            assert at is not None and program[at] == text
            placed = joined.place(at)
            assert placed is not None and (placed[0].key, placed[1]) == (key, line)
    assert joined.place(len(program)) is None and joined.program_line("b", 4) is None
    assert joined.program_line("nope", 0) is None


def test_line_breaks_are_the_ones_ast_counts() -> None:
    """\\r\\n and \\r end lines as for `ast`; a form feed inside a line does not."""
    assert split_lines("a = 1\r\nb = 2\rc = 3\n") == ["a = 1", "b = 2", "c = 3"]
    assert split_lines("s = 'x\x0cy'\n") == ["s = 'x\x0cy'"]
    joined = join_cells([("a", "x = 1\r\n"), ("b", "y = 2\r\nz = 3")])
    tree = ast.parse(joined.source)
    assert [node.lineno for node in tree.body] == [1, 2, 3]
    assert joined.place(2) is not None and joined.place(2)[0].key == "b"  # type: ignore[index]


def test_empty_cells_take_no_lines() -> None:
    joined = join_cells([("a", ""), ("b", "x = 1\n"), ("c", "\n")])
    assert joined.source == "x = 1\n\n"
    assert joined.program_line("b", 0) == 0
    assert join_cells([]).source == ""


def test_ipython_lines_are_blanked_so_the_rest_parses() -> None:
    cell = (
        "%matplotlib inline\n"
        "!pip install -q jax\n"
        "files = !ls\n"
        "jnp.zeros?\n"
        "for i in range(3):\n"
        "    %time f(i)\n"
        "%config A.b = \\\n"
        "    1\n"
        "y = (x\n"
        "% 3)\n"
    )
    blanked = blank_ipython(split_lines(cell))
    assert blanked is not None
    lines, which = blanked
    assert which == {0, 1, 2, 3, 5, 6, 7}
    assert lines[5] == "    pass"  # keeps the loop's body a body
    assert lines[8:] == ["y = (x", "% 3)"]  # untouched: `%` continues an expression there
    joined = join_cells([("a", cell)])
    ast.parse(joined.source)
    assert joined.program_line("a", 0) is None  # blanked lines are not the cell's code
    assert joined.program_line("a", 4) == 4


def test_a_cell_that_parses_is_never_rewritten() -> None:
    """`% 3` on its own line continues an expression: in a cell that parses nothing is blanked."""
    cell = "y = (x\n% 3)\n"
    joined = join_cells([("a", cell)])
    assert joined.source == cell and joined.cells[0].blanked == frozenset()


def test_cell_magics() -> None:
    """`%%time` runs its body as Python; `%%bash` is not Python at all."""
    joined = join_cells([("t", "%%time\nx = f(1)\n"), ("b", "%%bash\nls -l | wc\n")])
    assert joined.source.splitlines() == ["pass", "x = f(1)", "", ""]
    assert joined.program_line("t", 1) == 1 and joined.program_line("b", 1) is None
    assert joined.unparsed == ()


def test_a_cell_that_does_not_parse_leaves_the_others_whole() -> None:
    joined = join_cells([("a", IMPORTS), ("bad", "def broken(:\n    pass\n"), ("c", STEPS)])
    assert joined.unparsed == ("bad",)
    assert joined.source.splitlines()[2:4] == ["", ""]
    ast.parse(joined.source)
    assert joined.program_line("c", 0) == 4 and joined.program_line("bad", 0) is None


def test_place_span_keeps_edits_inside_one_cell() -> None:
    joined = join_cells([("a", "x = 1\ny = 2\n"), ("b", "z = 3\n")])
    first = joined.cells[0]
    assert joined.place_span(0, 1, 5) is first
    assert joined.place_span(0, 2, 0) is first  # to the start of the next line: the cell's end
    assert joined.place_span(1, 2, 3) is None  # runs into the next cell
    assert joined.place_span(2, 2, 1) is joined.cells[1]


def test_rules_see_a_function_defined_in_one_cell_and_jitted_in_another() -> None:
    found = check_cells([("a", IMPORTS), ("b", STEPS), ("c", JIT_IT)])
    assert [(key, f.entry, f.line, f.column) for key, f in found] == [
        ("b", "tracer-integer-conversion", 1, 19)
    ]
    # The cell alone says nothing: nothing in it is jitted.
    assert check_cells([("b", STEPS)]) == []


def test_ignore_comments_and_magics_in_cells() -> None:
    relu = "@jax.jit\ndef relu(x):\n    if x > 0:{}\n        return x\n    return -x\n"
    cells = [("a", IMPORTS + "%load_ext jaxerr_ls\n"), ("b", relu.format(""))]
    [(key, finding)] = check_cells(cells)
    assert (key, finding.entry, finding.line) == ("b", "tracer-bool-conversion", 2)
    silenced = [("a", IMPORTS), ("b", relu.format("  # jaxerr: ignore[tracer-bool-conversion]"))]
    assert check_cells(silenced) == []


def test_percent_inside_a_string_is_not_a_magic() -> None:
    cell = 'doc = """\n%not a magic\n!nor this\n"""\n!ls\ntext = "50%"\n'
    blanked = blank_ipython(split_lines(cell))
    assert blanked is not None and blanked[1] == {4}
