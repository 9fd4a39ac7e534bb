"""The language server: LSP methods wired to the core, positions converted here and nowhere else.

Each handler is a few lines; the work lives in `jaxerr_ls.shells.lsp.*` and the pure core.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

from lsprotocol import types

from jaxerr_ls.shells.lsp import actions, notebooks, preload
from jaxerr_ls.shells.lsp.convert import norm_uri, to_changes
from jaxerr_ls.shells.lsp.hover import (
    fast_target,
    hover_context,
    hover_result,
    inferred_api,
    markdown_supported,
)
from jaxerr_ls.shells.lsp.state import COMMAND_ORIGIN, JaxerrServer, log, log_catalog
from jaxerr_ls.shells.lsp.watch import GLOB

server = JaxerrServer()


@server.feature(types.INITIALIZE)
def initialize(ls: JaxerrServer, params: types.InitializeParams) -> None:
    ls.apply_settings(params.initialization_options)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def configuration_changed(ls: JaxerrServer, params: types.DidChangeConfigurationParams) -> None:
    ls.configuration_changed(params.settings)


@server.feature(types.INITIALIZED)
async def initialized(ls: JaxerrServer, params: types.InitializedParams) -> None:
    ls.catalog_future()
    ls.background(ls.ask_configuration())
    watched = ls.client_capabilities.workspace
    files = watched.did_change_watched_files if watched else None
    if files is not None and files.dynamic_registration:
        watcher = types.FileSystemWatcher(glob_pattern=GLOB)
        options = types.DidChangeWatchedFilesRegistrationOptions(watchers=[watcher])
        registration = types.Registration(
            id="jaxerr-watch",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=options,
        )
        try:
            await ls.client_register_capability_async(types.RegistrationParams([registration]))
        except Exception as exc:  # noqa: BLE001 - polling still finds the files
            log.info("file watching not registered (%s); polling only", exc)
    ls.start_polling()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: JaxerrServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.read_context(params.text_document.uri, 0.0)  # before the analysis: it is quick
    ls.predict(params.text_document.uri, 0.0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: JaxerrServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.contexts.forget(params.text_document.uri)
    ls.forget_prediction(params.text_document.uri)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def watched_files(ls: JaxerrServer, params: types.DidChangeWatchedFilesParams) -> None:
    await ls.rescan()


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
async def folders_changed(ls: JaxerrServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    await ls.rescan()


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: JaxerrServer, params: types.HoverParams) -> types.Hover | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    lines = ls.hovered_lines(doc.uri, doc.source, doc)
    where = doc.position_codec.position_from_client_units(lines, params.position)
    source = await ls.hover_source()
    scope = notebooks.import_scope(ls.workspace, doc.uri) or (doc.uri, doc.version, doc.source)
    bindings = ls.bindings(*scope)
    target = fast_target(lines, where.line, where.character, bindings, source.apis)
    if target is None:
        return None
    api = target.api
    if api is None and target.ask_jedi:
        from jaxerr_ls.resolve.infer import infer_names

        root = str(ls.folders()[0]) if ls.folders() else None
        job = (doc.source, doc.path, root, where.line, where.character)
        names = await asyncio.get_running_loop().run_in_executor(ls.thread_pool, infer_names, *job)
        api = inferred_api(names, source.apis)
    if api is None:
        return None
    markdown = markdown_supported(ls.client_capabilities)
    release, site_url = ls.jax_release, ls.settings.site_url
    codec = doc.position_codec
    # What this call risks here: the diagnostics on its line and on the lines its shape ties to
    # it, then what the shape itself says (issue 19), read from the text's call table (none yet
    # for a large file's new text: the API's errors without the context, see context.py).
    diagnostics = ls.diagnostics(norm_uri(doc.uri))
    table = ls.contexts.table(doc.uri, doc.source, len(lines))
    line_ids, shape_ids = hover_context(table, where.line, where.character, api, diagnostics)
    loaded = ls.catalog_future()
    catalog = loaded.result() if loaded.done() else None
    return hover_result(
        target, api, source, markdown, lines, codec, release, site_url, line_ids, shape_ids, catalog
    )


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: JaxerrServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.read_context(params.text_document.uri)
    ls.predict(params.text_document.uri)
    uri = norm_uri(params.text_document.uri)
    if not ls.store.for_uri(uri):  # nothing to move: skip splitting the document into lines
        return
    lines = ls.workspace.get_text_document(params.text_document.uri).lines
    edited = ls.store.edited(uri, to_changes(params.content_changes), lines)
    if edited is not ls.store:
        ls.set_store(edited)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
def notebook_opened(ls: JaxerrServer, params: types.DidOpenNotebookDocumentParams) -> None:
    ls.predict_notebook(params.notebook_document.uri, 0.0)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def notebook_changed(ls: JaxerrServer, params: types.DidChangeNotebookDocumentParams) -> None:
    ls.predict_notebook(params.notebook_document.uri)
    edited = notebooks.edited(ls.store, ls.workspace, params.change)
    if edited is not ls.store:
        ls.set_store(edited)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
def notebook_closed(ls: JaxerrServer, params: types.DidCloseNotebookDocumentParams) -> None:
    ls.forget_notebook_prediction(params.notebook_document.uri)
    for cell in params.cell_text_documents:
        ls.contexts.forget(cell.uri)
    edited = notebooks.dropped(ls.store, {cell.uri for cell in params.cell_text_documents})
    if edited is not ls.store:
        ls.set_store(edited)


@server.feature(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.DiagnosticOptions(
        identifier="jaxerr", inter_file_dependencies=False, workspace_diagnostics=False
    ),
)
def pull(
    ls: JaxerrServer, params: types.DocumentDiagnosticParams
) -> types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    if not ls.pulls():  # pushed instead; an empty pull report keeps the client from doubling them
        return types.FullDocumentDiagnosticReport(items=[], result_id="pushed")
    result_id = f"{doc.uri}@{doc.version}.{ls.store.revision}.{ls.predictions.revision}"
    if params.previous_result_id == result_id:
        return types.UnchangedDocumentDiagnosticReport(result_id=result_id)
    items = ls.diagnostics(norm_uri(doc.uri))
    return types.FullDocumentDiagnosticReport(items=items, result_id=result_id)


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=list(actions.KINDS))
)
async def code_action(
    ls: JaxerrServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    preload.touch()
    doc = ls.workspace.get_text_document(params.text_document.uri)
    start = doc.position_from_client_units(params.range.start)
    uri = norm_uri(doc.uri)
    request = actions.Request(
        uri=doc.uri,
        source=doc.source,
        lines=doc.lines,
        codec=doc.position_codec,
        line=start.line,
        column=start.character,
        diagnostics=tuple(d for d in params.context.diagnostics if actions.data_of(d)),
        stored=tuple(
            (i.entry_id, i.fields, i.span.line) for i in ls.store.for_uri(uri) if i.entry_id
        ),
        only=tuple(params.context.only) if params.context.only is not None else None,
        selected=params.range.start != params.range.end,
        program=notebooks.program_view(ls.workspace, doc.uri),
        analysed=actions.analysed(ls.predictions.current(uri, doc.version)),
    )
    marks = tuple((repr(d.range), repr(d.data)) for d in request.diagnostics)
    key = (
        doc.uri,
        doc.version,
        ls.store.revision,
        start.line,
        start.character,
        request.selected,
        request.only,
        marks,
        request.program.key if request.program else None,  # the other cells count too
        request.analysed is not None,  # an analysis of this text arrived since
    )
    return await ls.code_actions(request, key) or None


@server.command("jaxerr.explainTraceback")
async def explain_traceback(ls: JaxerrServer, *args: Any) -> list[dict[str, Any]]:
    if not args:
        raise ValueError("jaxerr.explainTraceback needs the traceback text")
    first = args[0]
    if isinstance(first, dict):
        text, root, cell = first.get("text"), first.get("root"), first.get("cell")
    else:
        text, root, cell = first, None, None
    if not isinstance(text, str) or not all(v is None or isinstance(v, str) for v in (root, cell)):
        raise TypeError(
            "expected [text] or [{'text': str, 'root': str | None, 'cell': str | None}]"
        )
    return await ls.explain(
        text, root, notebooks.origin(ls.workspace, cell) or COMMAND_ORIGIN, cell
    )


@server.command("jaxerr.clearDiagnostics")
def clear_diagnostics(ls: JaxerrServer, *args: Any) -> None:
    ls.set_store(ls.store.clear())


def start(tcp: str | None = None, verbose: int = 0) -> int:
    """Serve on stdio (default) or on TCP `HOST:PORT`; logs go to stderr."""
    # pygls logs every message at INFO: only with -vv.
    theirs = logging.DEBUG if verbose > 1 else logging.WARNING
    logging.basicConfig(
        stream=sys.stderr, level=theirs, format="%(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("jaxerr_ls").setLevel(logging.DEBUG if verbose else logging.INFO)
    # The hover index is opened while `initialize` is answered; the catalog loads when quiet.
    server.catalog_future().add_done_callback(log_catalog)
    if tcp is None:
        server.start_io()
        return 0
    host, _, port = tcp.rpartition(":")
    if not port.isdigit():
        print(f"jaxerr-ls: --tcp wants HOST:PORT, not {tcp!r}", file=sys.stderr)
        return 2
    server.start_tcp(host or "127.0.0.1", int(port))
    return 0
