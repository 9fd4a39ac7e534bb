"""Notebook sync: diagnostics from a traceback land on the cell's document (the URI the client
sent), follow edits to the cell, go when the notebook closes; hover and fixes work in cells.
The notebooks and their error outputs were executed by a real kernel (tests/notebooks/data)."""

from __future__ import annotations

import asyncio
import base64
import shutil
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from jaxerr_ls.tracebacks.ipynb import ParsedNotebook, read_notebook
from tests.notebooks.conftest import DATA

from .conftest import apply_edits, current_diagnostics, encoding, root, wait_diagnostics
from .test_diagnostics import clear, explain

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(autouse=True)
def notebook_client(client: LanguageClient) -> None:
    if client.profile != "visual-studio-code":  # type: ignore[attr-defined]
        pytest.skip("Neovim has no notebooks; VS Code's client declares notebook sync")


def cell_uri(notebook: Path, index: int) -> str:
    """How VS Code names a cell's document: the notebook path and a per-cell fragment."""
    fragment = base64.b64encode(f"W{index}sZmlsZQ==".encode()).decode().replace("=", "%3D")
    return f"vscode-notebook-cell:{notebook.as_posix()}#{fragment}"


def open_notebook(client: LanguageClient, name: str, as_name: str) -> tuple[Path, list[str]]:
    """Copy a saved notebook into the workspace and open it the way VS Code does: every cell,
    with the execution order the notebook recorded. Returns its path and cell URIs."""
    path = root(client) / f"{as_name}.ipynb"
    shutil.copy(DATA / f"{name}.ipynb", path)
    parsed = read_notebook(path)
    assert parsed is not None
    uris = [cell_uri(path, i) for i in range(len(parsed.notebook.cells))]
    cells = [
        types.NotebookCell(
            kind=types.NotebookCellKind.Code if cell.code else types.NotebookCellKind.Markup,
            document=uri,
            execution_summary=types.ExecutionSummary(cell.execution_count)
            if cell.execution_count is not None
            else None,
        )
        for cell, uri in zip(parsed.notebook.cells, uris, strict=True)
    ]
    documents = [
        types.TextDocumentItem(uri, "python" if cell.code else "markdown", 1, cell.source)
        for cell, uri in zip(parsed.notebook.cells, uris, strict=True)
    ]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=path.as_uri(), notebook_type="jupyter-notebook", version=1, cells=cells
            ),
            cell_text_documents=documents,
        )
    )
    return path, uris


def close_notebook(client: LanguageClient, path: Path, uris: list[str]) -> None:
    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(path.as_uri()),
            cell_text_documents=[types.TextDocumentIdentifier(uri) for uri in uris],
        )
    )


def saved(name: str) -> ParsedNotebook:
    parsed = read_notebook(DATA / f"{name}.ipynb")
    assert parsed is not None
    return parsed


def edit_cell(
    client: LanguageClient, path: Path, uri: str, version: int, line: int, text: str, end: int
) -> None:
    """Replace lines [line, end) of a cell with `text`, as a notebook change."""
    change = types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(line, 0), types.Position(end, 0)), text=text
    )
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(version, path.as_uri()),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(version, uri),
                            changes=[change],
                        )
                    ]
                )
            ),
        )
    )


async def wait_lines(
    client: LanguageClient, uri: str, lines: list[int], timeout: float = 30.0
) -> list[types.Diagnostic]:
    """Poll until the diagnostics of `uri` sit on `lines` (an edit is handled asynchronously)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await current_diagnostics(client, uri)
        if [d.range.start.line for d in found] == lines or loop.time() > deadline:
            return found
        await asyncio.sleep(0.1)


async def wait_errors(
    client: LanguageClient, uri: str, count: int, timeout: float = 30.0
) -> list[types.Diagnostic]:
    """Poll until `uri` shows `count` traceback diagnostics (errors; predicted ones are warnings
    and stay while the code is unchanged)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = [
            d
            for d in await current_diagnostics(client, uri)
            if d.severity == types.DiagnosticSeverity.Error
        ]
        if len(found) == count or loop.time() > deadline:
            return found
        await asyncio.sleep(0.1)


async def test_notebook_sync_is_declared(client: LanguageClient) -> None:
    capabilities: types.ServerCapabilities = client.server_capabilities  # type: ignore[attr-defined]
    sync = capabilities.notebook_document_sync
    assert isinstance(sync, types.NotebookDocumentSyncOptions)
    (selector,) = sync.notebook_selector
    assert selector.notebook == "jupyter-notebook"
    assert [c.language for c in selector.cells or []] == ["python"]


async def test_traceback_diagnostic_lands_on_the_cell_and_follows_edits(
    client: LanguageClient,
) -> None:
    """`out_of_order` ran its cells out of order: In[2] is the fourth cell (index 3)."""
    path, uris = open_notebook(client, "out_of_order", f"order_{client.profile}")  # type: ignore[attr-defined]
    await clear(client)
    (error,) = saved("out_of_order").errors
    (explained,) = await explain(client, error.text)
    assert explained["entry"]["id"] == "broadcast-op-incompatible-shapes"
    assert explained["location"] == {
        "path": str(path.resolve()),
        "cell": 3,
        "line": 3,
        "in_workspace": True,
    }
    (diagnostic,) = await wait_diagnostics(client, uris[3])
    assert diagnostic.code == "broadcast-op-incompatible-shapes"
    assert diagnostic.range.start.line == 2
    cell_text = saved("out_of_order").notebook.cells[3].source.splitlines()[2]
    assert diagnostic.range.start.character == cell_text.index("return")
    for other in (uris[0], uris[2]):
        assert await current_diagnostics(client, other) == []

    # A line inserted above in the cell moves it down; changing its line drops it.
    edit_cell(client, path, uris[3], 2, 0, "# helpers\n", 0)
    (moved,) = await wait_lines(client, uris[3], [3])
    edit_cell(client, path, uris[3], 3, 3, "    return scale * a + b\n", 4)
    assert await wait_diagnostics(client, uris[3], count=0) == []
    close_notebook(client, path, uris)


async def test_closing_the_notebook_drops_its_diagnostics(client: LanguageClient) -> None:
    path, uris = open_notebook(client, "tracer_bool", f"closing_{client.profile}")  # type: ignore[attr-defined]
    await clear(client)
    (error,) = saved("tracer_bool").errors
    await explain(client, error.text)
    (diagnostic,) = await wait_diagnostics(client, uris[2])
    assert diagnostic.code == "tracer-bool-conversion" and diagnostic.range.start.line == 2
    # the call in the next cell (`clip_positive(y)`, In[3] line 2) is related information
    related = [
        (r.location.uri, r.location.range.start.line) for r in diagnostic.related_information or []
    ]
    assert related == [(uris[3], 1)]
    close_notebook(client, path, uris)
    assert await wait_diagnostics(client, uris[2], count=0) == []


async def test_cell_hint_picks_the_notebook_that_printed_it(client: LanguageClient) -> None:
    """Two open copies hold the same cells: the `cell` hint says which one printed the error."""
    profile = client.profile  # type: ignore[attr-defined]
    first, first_uris = open_notebook(client, "immutable_set", f"hint_a_{profile}")
    second, second_uris = open_notebook(client, "immutable_set", f"hint_b_{profile}")
    (error,) = saved("immutable_set").errors
    for hinted, uris, other in (
        (second, second_uris, first_uris),
        (first, first_uris, second_uris),
    ):
        await clear(client)
        result = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command="jaxerr.explainTraceback",
                arguments=[{"text": error.text, "cell": uris[1]}],
            )
        )
        assert isinstance(result, list) and result[0]["location"]["path"] == str(hinted.resolve())
        (diagnostic,) = await wait_diagnostics(client, uris[1])
        assert diagnostic.code == "immutable-array-item-assignment"
        # the other copy's cell keeps only its predicted warning (its code is the same), which
        # the analysis worker may still be computing
        shown = await wait_diagnostics(client, other[1], timeout=60)
        assert [(d.code, (d.data or {}).get("predicted")) for d in shown] == [
            ("immutable-array-item-assignment", True)
        ]
    close_notebook(client, first, first_uris)
    close_notebook(client, second, second_uris)


async def test_quick_fix_and_hover_in_a_cell(client: LanguageClient) -> None:
    path, uris = open_notebook(client, "immutable_set", f"fix_{client.profile}")  # type: ignore[attr-defined]
    await clear(client)
    (error,) = saved("immutable_set").errors
    await explain(client, error.text)
    (diagnostic,) = await wait_diagnostics(client, uris[1])
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uris[1]),
            diagnostic.range,
            types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    quick = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.kind == "quickfix"]
    assert quick, actions
    edit = quick[0].edit
    assert edit is not None and edit.changes is not None and list(edit.changes) == [uris[1]]
    source = saved("immutable_set").notebook.cells[1].source
    fixed = apply_edits(source, edit.changes[uris[1]], encoding(client))
    assert "x = x.at[0].set(1.0)" in fixed and "x[0] = 1.0" not in fixed

    # `jnp` is imported in the first cell; a hover on `zeros` in the second still knows it.
    line = source.splitlines()[0]
    hover = await client.text_document_hover_async(
        types.HoverParams(
            types.TextDocumentIdentifier(uris[1]), types.Position(0, line.index("zeros") + 1)
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "`jax.numpy.zeros`" in hover.contents.value
    close_notebook(client, path, uris)


async def test_each_notebook_speaks_for_itself(client: LanguageClient) -> None:
    """With a cell hint, a notebook's outputs replace only what that notebook said before."""
    profile = client.profile  # type: ignore[attr-defined]
    first, first_uris = open_notebook(client, "immutable_set", f"own_a_{profile}")
    second, second_uris = open_notebook(client, "tracer_bool", f"own_b_{profile}")
    await clear(client)

    async def send(text: str, cell: str) -> None:
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command="jaxerr.explainTraceback", arguments=[{"text": text, "cell": cell}]
            )
        )

    await send(saved("immutable_set").errors[0].text, first_uris[1])
    await send(saved("tracer_bool").errors[0].text, second_uris[3])
    assert len(await wait_diagnostics(client, first_uris[1])) == 1
    assert len(await wait_diagnostics(client, second_uris[2])) == 1
    await send("", first_uris[1])  # the first notebook's outputs were cleared
    assert await wait_errors(client, first_uris[1], count=0) == []
    assert len(await current_diagnostics(client, second_uris[2])) == 1
    close_notebook(client, first, first_uris)
    close_notebook(client, second, second_uris)
