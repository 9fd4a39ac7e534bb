"""Notebooks the client syncs (pygls 2 keeps them: `workspace.notebook_documents`, one text
document per cell) seen as the core's `Notebook`s, what their edits do to the diagnostics, and
their code cells as one program (`jaxerr_ls.analysis.cells`) for predictions and fixes."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types
from pygls.uris import to_fs_path
from pygls.workspace import Workspace as LspWorkspace

from jaxerr_ls.explain.diagnostics import Store
from jaxerr_ls.shells.lsp.actions import ProgramView
from jaxerr_ls.shells.lsp.convert import Lines, norm_uri, to_changes
from jaxerr_ls.tracebacks.cells import Cell, Notebook

NOTEBOOK_TYPE = "jupyter-notebook"
CELL_LANGUAGE = "python"

SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithNotebook(
            notebook=NOTEBOOK_TYPE, cells=[types.NotebookCellLanguage(language=CELL_LANGUAGE)]
        )
    ]
)


def _path_of(uri: str) -> str:
    """The notebook's file (absolute) when it has one, else its URI (an untitled notebook)."""
    path = to_fs_path(uri)
    return str(Path(path).resolve()) if path else uri


def open_notebooks(workspace: LspWorkspace, first_cell: str | None = None) -> tuple[Notebook, ...]:
    """Every open notebook; the one holding `first_cell` (the cell that printed the traceback,
    when the client says so) first, so that its cells win over other notebooks'."""
    out: list[Notebook] = []
    for uri, document in workspace.notebook_documents.items():
        cells: list[Cell] = []
        for index, cell in enumerate(document.cells):
            text = workspace.get_text_document(cell.document)
            summary = cell.execution_summary
            cells.append(
                Cell(
                    index=index,
                    source=text.source,
                    execution_count=summary.execution_order if summary else None,
                    code=cell.kind == types.NotebookCellKind.Code
                    and text.language_id in (None, CELL_LANGUAGE),
                    uri=cell.document,
                )
            )
        notebook = Notebook(_path_of(uri), tuple(cells))
        holds_first = first_cell is not None and any(
            c.document == first_cell for c in document.cells
        )
        if holds_first:
            out.insert(0, notebook)
        else:
            out.append(notebook)
    return tuple(out)


def origin(workspace: LspWorkspace, cell: str | None) -> str | None:
    """Tracebacks sent with a cell hint speak for that cell's notebook: a newer one replaces
    what the notebook's outputs said before, and leaves files', terminals' and other notebooks'
    diagnostics alone (an editor sends each notebook's error outputs as they change)."""
    if cell is None:
        return None
    notebook = workspace.get_notebook_document(cell_uri=cell)
    return f"notebook:{notebook.uri}" if notebook is not None else None


def import_scope(workspace: LspWorkspace, cell_uri: str) -> tuple[str, int | None, str] | None:
    """(key, version, text) of every code cell of the cell's notebook, for the names imported in
    any cell (`import jax.numpy as jnp` in the first cell serves a hover in the fifth); None
    for a plain file."""
    notebook = workspace.get_notebook_document(cell_uri=cell_uri)
    if notebook is None:
        return None
    sources = [
        workspace.get_text_document(cell.document).source
        for cell in notebook.cells
        if cell.kind == types.NotebookCellKind.Code
    ]
    return notebook.uri, notebook.version, "\n".join(sources)


def edited(
    store: Store, workspace: LspWorkspace, change: types.NotebookDocumentChangeEvent
) -> Store:
    """Diagnostics in cells follow their edits as in files; those of closed cells go."""
    cells = change.cells
    if cells is None:
        return store
    for content in cells.text_content or []:
        uri = content.document.uri
        if store.for_uri(uri):
            lines = workspace.get_text_document(uri).lines
            store = store.edited(uri, to_changes(content.changes), lines)
    closed = {doc.uri for doc in (cells.structure.did_close or [])} if cells.structure else set()
    return dropped(store, closed)


def dropped(store: Store, uris: set[str]) -> Store:
    """Without the diagnostics on these (closed) cells."""
    if not uris & store.uris:
        return store
    return store.without(uris)


def _code_cell_documents(
    workspace: LspWorkspace, notebook: types.NotebookDocument
) -> list[tuple[str, str, Lines]]:
    out: list[tuple[str, str, Lines]] = []
    for cell in notebook.cells:
        if cell.kind != types.NotebookCellKind.Code:
            continue
        document = workspace.text_documents.get(unquote(cell.document))
        if document is not None and document.language_id in (None, CELL_LANGUAGE):
            out.append((norm_uri(cell.document), document.source, document.lines))
    return out


def prediction_key(notebook_uri: str) -> str:
    """Under which key a notebook's cells are predicted together (not a document URI)."""
    return f"notebook:{unquote(notebook_uri)}"


def code_cells(workspace: LspWorkspace, notebook_uri: str) -> list[tuple[str, str, Lines]] | None:
    """(cell URI, text, lines) of the open notebook's Python code cells in notebook order (what
    "Run All" runs); None when the notebook is not open."""
    notebook = workspace.get_notebook_document(notebook_uri=notebook_uri)
    return None if notebook is None else _code_cell_documents(workspace, notebook)


def notebook_of(workspace: LspWorkspace, cell_uri: str) -> str | None:
    """The URI of the open notebook holding the cell, None for a plain file."""
    notebook = workspace.get_notebook_document(cell_uri=cell_uri)
    return None if notebook is None else notebook.uri


def program_view(workspace: LspWorkspace, cell_uri: str) -> ProgramView | None:
    """The cell's notebook as one program, for code actions in the cell; None for a file."""
    notebook = workspace.get_notebook_document(cell_uri=cell_uri)
    if notebook is None:
        return None
    cells = _code_cell_documents(workspace, notebook)
    if norm_uri(cell_uri) not in {uri for uri, _, _ in cells}:
        return None
    return ProgramView(cells=tuple(cells), cell=norm_uri(cell_uri))
