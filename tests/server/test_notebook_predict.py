"""Predicted warnings in notebook cells, with a real notebook-sync client: the code cells are one
program (a function defined in one cell and jitted in the next is flagged), each warning on its
cell's document, following cell edits, cleared when the notebook closes, never doubled with the
traceback the kernel printed, silenced by `# jaxerr: ignore`; its quick fix edits the cell it must
(another one, when the jit is there). `one_program.ipynb` was executed by a real kernel: its
saved errors are where the warnings are."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from jaxerr_ls.tracebacks.ipynb import read_notebook
from tests.notebooks.conftest import DATA

from .conftest import apply_edits, current_diagnostics, encoding, units
from .test_diagnostics import clear
from .test_notebooks import close_notebook, edit_cell, open_notebook, saved

pytestmark = pytest.mark.asyncio(loop_scope="session")

NOTEBOOK = "one_program"
STEPS, JIT_CELL, BROKEN, RELU, QUIET = 2, 3, 4, 5, 6  # cell indices in one_program.ipynb


@pytest.fixture(autouse=True)
def notebook_client(client: LanguageClient) -> None:
    if client.profile != "visual-studio-code":  # type: ignore[attr-defined]
        pytest.skip("Neovim has no notebooks; VS Code's client declares notebook sync")


def predicted(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if isinstance(d.data, dict) and d.data.get("predicted")]


async def wait_warnings(
    client: LanguageClient, uri: str, lines: list[int], timeout: float = 30.0
) -> list[types.Diagnostic]:
    """Poll until the predicted warnings of `uri` sit on `lines` (edits are debounced)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = predicted(await current_diagnostics(client, uri))
        if [d.range.start.line for d in found] == lines or loop.time() > deadline:
            return found
        await asyncio.sleep(0.1)


def cell_text(index: int) -> str:
    return saved(NOTEBOOK).notebook.cells[index].source


async def test_warnings_land_on_their_cells(client: LanguageClient) -> None:
    path, uris = open_notebook(client, NOTEBOOK, f"predict_cells_{client.profile}")  # type: ignore[attr-defined]
    await clear(client)
    # `steps` (cell 2) is jitted by cell 3: its `range(n)` is flagged in cell 2.
    [steps] = await wait_warnings(client, uris[STEPS], [1])
    assert steps.code == "tracer-integer-conversion"
    assert steps.severity == types.DiagnosticSeverity.Warning and steps.source == "jaxerr"
    assert steps.data == {
        "entry": "tracer-integer-conversion",
        "fields": {"name": "n"},
        "predicted": True,
    }
    line = cell_text(STEPS).splitlines()[1]
    enc = encoding(client)
    start = units(line[: line.index("range(n)") + len("range(")], enc)
    assert (steps.range.start.character, steps.range.end.character) == (start, start + 1)
    [relu] = await wait_warnings(client, uris[RELU], [2])
    assert relu.code == "tracer-bool-conversion"
    # Nothing on the cells with magics, the jit call, the broken cell, the ignored branch.
    for quiet in (1, JIT_CELL, BROKEN, QUIET):
        assert predicted(await current_diagnostics(client, uris[quiet])) == []

    # The kernel raised these very errors: each saved one is located where a warning is.
    errors = {(e.cell, e.ename) for e in saved(NOTEBOOK).errors if e.ename.startswith("Tracer")}
    assert errors == {
        (JIT_CELL, "TracerIntegerConversionError"),
        (RELU, "TracerBoolConversionError"),
    }
    close_notebook(client, path, uris)
    for uri in (uris[STEPS], uris[RELU]):
        assert await wait_warnings(client, uri, []) == []


async def test_edits_move_clear_and_bring_back_warnings(client: LanguageClient) -> None:
    path, uris = open_notebook(client, NOTEBOOK, f"predict_edits_{client.profile}")  # type: ignore[attr-defined]
    await clear(client)
    await wait_warnings(client, uris[STEPS], [1])
    version = 2
    # A line inserted above in the cell moves the warning down.
    edit_cell(client, path, uris[STEPS], version, 0, "# counts up\n", 0)
    version += 1
    assert len(await wait_warnings(client, uris[STEPS], [2])) == 1
    # Not jitted any more (an edit in the NEXT cell): the warning in this cell goes.
    edit_cell(client, path, uris[JIT_CELL], version, 0, "fast = steps\n", 1)
    version += 1
    assert await wait_warnings(client, uris[STEPS], []) == []
    edit_cell(client, path, uris[JIT_CELL], version, 0, "fast = jax.jit(steps)\n", 1)
    version += 1
    assert len(await wait_warnings(client, uris[STEPS], [2])) == 1
    # The broken cell, once it parses, is analysed with the others (it uses `jnp` from cell 1).
    fixed = "@jax.jit\ndef broken(x):\n    if x.sum() > 1:\n        return x\n    return -x\n"
    edit_cell(client, path, uris[BROKEN], version, 0, fixed, 2)
    version += 1
    [found] = await wait_warnings(client, uris[BROKEN], [2])
    assert found.code == "tracer-bool-conversion"
    # Typing a syntax error in a cell keeps the other cells' warnings.
    edit_cell(client, path, uris[BROKEN], version, 0, "def broken(:\n", 5)
    version += 1
    assert await wait_warnings(client, uris[BROKEN], []) == []
    assert len(await wait_warnings(client, uris[RELU], [2])) == 1
    assert len(await wait_warnings(client, uris[STEPS], [2])) == 1
    close_notebook(client, path, uris)


async def test_ignore_comment_typed_in_a_cell(client: LanguageClient) -> None:
    path, uris = open_notebook(client, NOTEBOOK, f"predict_ignore_{client.profile}")  # type: ignore[attr-defined]
    await clear(client)
    await wait_warnings(client, uris[RELU], [2])
    silenced = "    if x > 0:  # jaxerr: ignore[tracer-bool-conversion]\n"
    edit_cell(client, path, uris[RELU], 2, 2, silenced, 3)
    assert await wait_warnings(client, uris[RELU], []) == []
    close_notebook(client, path, uris)


async def test_no_double_with_the_kernels_traceback(client: LanguageClient) -> None:
    """The kernel's traceback (sent with its cell) and the warning name the same entry on the
    same line of the same cell: the cell shows the traceback's error alone."""
    path, uris = open_notebook(client, NOTEBOOK, f"predict_double_{client.profile}")  # type: ignore[attr-defined]
    await clear(client)
    await wait_warnings(client, uris[RELU], [2])
    [error] = [e for e in saved(NOTEBOOK).errors if e.cell == RELU]
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="jaxerr.explainTraceback", arguments=[{"text": error.text, "cell": uris[RELU]}]
        )
    )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30.0
    shown = await current_diagnostics(client, uris[RELU])
    while not any(d.severity == types.DiagnosticSeverity.Error for d in shown):
        assert loop.time() < deadline, shown
        await asyncio.sleep(0.1)
        shown = await current_diagnostics(client, uris[RELU])
    assert [(d.code, d.range.start.line, d.severity) for d in shown] == [
        ("tracer-bool-conversion", 2, types.DiagnosticSeverity.Error)
    ]
    close_notebook(client, path, uris)


async def quick_fixes(
    client: LanguageClient, uri: str, diagnostic: types.Diagnostic
) -> list[types.CodeAction]:
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            diagnostic.range,
            types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    return [a for a in actions or [] if isinstance(a, types.CodeAction) and a.kind == "quickfix"]


async def test_quick_fixes_edit_the_right_cells(client: LanguageClient) -> None:
    path, uris = open_notebook(client, NOTEBOOK, f"predict_fix_{client.profile}")  # type: ignore[attr-defined]
    await clear(client)
    enc = encoding(client)
    # In the cell: `if` -> jnp.where, edits only that cell.
    [relu] = await wait_warnings(client, uris[RELU], [2])
    [where] = await quick_fixes(client, uris[RELU], relu)
    assert where.is_preferred and where.edit is not None and where.edit.changes is not None
    assert list(where.edit.changes) == [uris[RELU]]
    fixed = apply_edits(cell_text(RELU), where.edit.changes[uris[RELU]], enc)
    assert "return jnp.where(x > 0, x, 0.0 * x)" in fixed and "if x > 0" not in fixed

    # Across cells: `n` of `steps` (cell 2) is made static where it is jitted (cell 3).
    [steps] = await wait_warnings(client, uris[STEPS], [1])
    fixes = await quick_fixes(client, uris[STEPS], steps)
    [static] = [f for f in fixes if "static_argnames" in f.title]
    assert static.edit is not None and static.edit.changes is not None
    assert list(static.edit.changes) == [uris[JIT_CELL]]
    jitted = apply_edits(cell_text(JIT_CELL), static.edit.changes[uris[JIT_CELL]], enc)
    assert jitted.splitlines()[0] == 'fast = jax.jit(steps, static_argnames=("n",))'
    # Applied as the editor would, the warning goes.
    change = static.edit.changes[uris[JIT_CELL]]
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(2, path.as_uri()),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(2, uris[JIT_CELL]),
                            changes=[
                                types.TextDocumentContentChangePartial(
                                    range=e.range, text=e.new_text
                                )
                                for e in change
                            ],
                        )
                    ]
                )
            ),
        )
    )
    assert await wait_warnings(client, uris[STEPS], []) == []
    close_notebook(client, path, uris)


async def test_the_saved_notebook_is_the_one_the_kernel_ran() -> None:
    """Guards the indices above: the cells are where this module says."""
    parsed = read_notebook(DATA / f"{NOTEBOOK}.ipynb")
    assert parsed is not None
    cells = parsed.notebook.cells
    assert "def steps" in cells[STEPS].source and "jax.jit(steps)" in cells[JIT_CELL].source
    assert "def broken(:" in cells[BROKEN].source and "def relu" in cells[RELU].source
    assert "# jaxerr: ignore" in cells[QUIET].source
