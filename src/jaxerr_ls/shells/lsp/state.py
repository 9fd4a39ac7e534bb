"""The server's state and the work behind its handlers; `server.py` only wires LSP methods here.

Everything that reads or changes the diagnostics store runs on the event loop; parsing, matching
and jedi run in worker threads and hand back immutable results.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Coroutine, Hashable, Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from jaxerr_ls.explain.diagnostics import Store, items_for
from jaxerr_ls.resolve import scan_imports
from jaxerr_ls.shells.lsp import actions, notebooks, predict, preload
from jaxerr_ls.shells.lsp.analyser import Analyser
from jaxerr_ls.shells.lsp.context import Contexts
from jaxerr_ls.shells.lsp.convert import Lines, norm_uri, path_uri, to_diagnostic
from jaxerr_ls.shells.lsp.predict import DEBOUNCE_SECONDS
from jaxerr_ls.shells.lsp.settings import Settings, names_settings, read_settings
from jaxerr_ls.shells.lsp.watch import Stamp, diff, read_text, scan
from jaxerr_ls.tracebacks.locate import Workspace, read_lines
from jaxerr_ls.version import __version__

if TYPE_CHECKING:  # imported in worker threads, after `initialize` has been answered
    from jaxerr_ls.catalog import Catalog, Matcher
    from jaxerr_ls.catalog.hover_index import HoverSource

log = logging.getLogger("jaxerr_ls")

COMMAND_ORIGIN = "command"
ACTION_CACHE = 64
POLL_SECONDS = 1.0
CONFIGURATION_SECONDS = 30.0  # a client that has not answered workspace/configuration by then


def log_catalog(future: Future[Catalog]) -> None:
    """Say which index serves (the installed JAX's, or the newest shipped) and what was wrong."""
    if future.exception() is not None:
        log.error("catalog not loaded: %s", future.exception())
        return
    catalog = future.result()
    log.info(
        "catalog: %d entries, JAX %s, index %s",
        len(catalog.entries),
        catalog.jax_version or "?",
        catalog.source or "none (curated entries only)",
    )
    for problem in catalog.problems[:20]:
        log.warning("catalog: %s", problem)


class JaxerrServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "jaxerr-ls", __version__, max_workers=4, notebook_document_sync=notebooks.SYNC
        )
        self.store = Store()
        self.settings = Settings()
        self._matcher: Matcher | None = None
        self._matcher_lock = threading.Lock()
        self._imports: dict[str, tuple[int | None, Mapping[str, str]]] = {}
        self._hovered: tuple[str, str, Lines] | None = None  # (URI, text, its lines)
        self._stamps: dict[str, Stamp] = {}
        self._latest: dict[str, int] = {}
        self._poller: asyncio.Task[None] | None = None
        self._scanning = asyncio.Lock()
        self._actions: dict[Hashable, asyncio.Future[list[types.CodeAction]]] = {}
        # The JAX release of the project's interpreter (`jaxerr.interpreter`), when known.
        self.interpreter: str | None = None
        self.jax_release: str | None = None
        self._tasks: set[asyncio.Future[None]] = set()
        self.predictions = predict.Predictions()
        # The worker process the predictions run in (it imports the rules at once when they are on).
        self.analyser = Analyser(lambda: self.predictions.enabled)
        self.predictions.cancel = self.analyser.cancel
        # Call tables for hovers in context, read by that worker (`context.py`).
        self.contexts = Contexts(lambda key, text: self.analyser.submit("context", key, None, text))
        self._configuration_generation = 0  # pushes and questions, to drop overtaken answers

    def background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` without blocking the handler; the task is kept until it ends."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def apply_settings(self, options: object) -> None:
        """`jaxerr.interpreter`, `jaxerr.siteUrl` and `jaxerr.predict` from initialization
        options, a pushed `workspace/didChangeConfiguration` or a `workspace/configuration`
        answer; a setting the options do not name keeps its value."""
        self.use_interpreter(options)
        self.configure(options)
        value = predict.setting(options)
        if value is not None:
            self.set_predicting(value)

    def configuration_changed(self, settings: object) -> None:
        """`workspace/didChangeConfiguration`: pushed `jaxerr` settings apply at once; a bare
        notification (`settings: null`, the pull model) has the client asked for the section."""
        self._configuration_generation += 1
        if names_settings(settings):
            self.apply_settings(settings)
        else:
            self.background(self.ask_configuration())

    async def ask_configuration(self) -> None:
        """The `jaxerr` section of the workspace configuration, when the client offers it.

        Runs as a task of its own, never awaited by a handler: an answer that comes late, or
        never, holds up nothing. An answer overtaken by a newer push or question is dropped."""
        workspace = self.client_capabilities.workspace
        if workspace is None or not workspace.configuration:
            return
        self._configuration_generation += 1
        asked = self._configuration_generation
        item = types.ConfigurationItem(section="jaxerr")
        try:
            found = await asyncio.wait_for(
                self.workspace_configuration_async(types.ConfigurationParams([item])),
                CONFIGURATION_SECONDS,
            )
        except Exception as exc:  # noqa: BLE001 - a client that fails this keeps the settings
            log.info("workspace configuration not read (%s)", str(exc) or type(exc).__name__)
            return
        if found and asked == self._configuration_generation:
            self.apply_settings(found[0])

    def use_interpreter(self, options: Any) -> None:
        """Learn the project's interpreter from initialization options or configuration and read
        its environment's JAX version from the metadata (nothing is run)."""
        from jaxerr_ls.catalog.envs import interpreter_setting, jax_version_in

        interpreter = interpreter_setting(options)
        if interpreter is None or interpreter == self.interpreter:
            return
        self.interpreter = interpreter
        self.jax_release = jax_version_in(interpreter)
        self.predictions.jax_release = self.jax_release
        self.predictions.interpreter = interpreter
        self._matcher = None  # rebuilt to prefer that release's wordings
        log.info("interpreter %s: jax %s", interpreter, self.jax_release or "not installed")

    def configure(self, options: object) -> None:
        """Apply settings from initializationOptions or didChangeConfiguration."""
        self.settings, problems = read_settings(options, self.settings)
        for problem in problems:
            log.warning("%s", problem)
            self.window_show_message(types.ShowMessageParams(types.MessageType.Warning, problem))

    # -- catalog, loaded once in the background so that `initialize` answers at once --
    def catalog_future(self) -> Future[Catalog]:
        """Starts the loading (the catalog itself when the editor is quiet, see preload.py)."""
        return preload.start()

    async def catalog(self) -> Catalog:
        return await asyncio.wrap_future(preload.need())

    async def hover_source(self) -> HoverSource:
        """The hover index (or the catalog, when there is no index): never the whole catalog's
        load on the first hover's path."""
        return await asyncio.wrap_future(preload.hover_source())

    def matcher(self) -> Matcher:
        """Built on first use, in a worker thread (compiling thousands of templates)."""
        with self._matcher_lock:
            if self._matcher is None:
                from jaxerr_ls.catalog import Matcher

                self._matcher = Matcher(preload.need().result(), self.jax_release)
            return self._matcher

    # -- documents --
    def hovered_lines(self, uri: str, source: str, doc: Any) -> Lines:
        """The lines of the document last hovered, split once per text (pygls splits the whole
        text again at each access: ~0.1 ms for 2,000 lines, twice per hover)."""
        kept = self._hovered
        if kept is None or kept[0] != uri or kept[1] is not source:
            kept = self._hovered = (uri, source, doc.lines)
        return kept[2]

    def bindings(self, uri: str, version: int | None, source: str) -> Mapping[str, str]:
        cached = self._imports.get(uri)
        if cached is None or cached[0] != version or version is None:
            cached = (version, scan_imports(source))
            self._imports[uri] = cached
        return cached[1]

    def open_sources(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for uri, doc in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path is not None:
                out[str(Path(path).resolve())] = doc.source
        return out

    def lines_of(self, uri: str) -> Lines:
        cell = self.workspace.text_documents.get(unquote(uri))  # pygls keys are unquoted
        if cell is not None:
            found: Lines = cell.lines
            return found
        for open_uri, doc in self.workspace.text_documents.items():
            if open_uri == uri or norm_uri(open_uri) == uri:
                lines: Lines = doc.lines
                return lines
        path = to_fs_path(uri)
        return (read_lines(Path(path)) or []) if path else []

    def folders(self) -> list[Path]:
        found = [to_fs_path(f.uri) for f in self.workspace.folders.values()]
        if not found and self.workspace.root_path:
            found = [self.workspace.root_path]
        return [Path(p) for p in found if p]

    # -- tracebacks -> diagnostics --
    def _root_for(self, text: str, root: str | None) -> Path | None:
        if root:
            return Path(root)
        folders = self.folders()
        return next((f for f in folders if str(f) in text), folders[0] if folders else None)

    async def explain(
        self, text: str, root: str | None, origin: str, cell: str | None = None
    ) -> list[dict[str, Any]]:
        """Explain the text, replace the origin's diagnostics, return `explain --json` objects.
        `cell`: the URI of the notebook cell that printed the text, when the client knows it."""
        number = self._latest.get(origin, 0) + 1
        self._latest[origin] = number
        where = self._root_for(text, root)
        sources = self.open_sources()
        opened = notebooks.open_notebooks(self.workspace, cell)

        def reader(path: Path) -> list[str] | None:
            source = sources.get(str(path.resolve()))
            return source.splitlines() if source is not None else read_lines(path)

        def work() -> tuple[list[dict[str, Any]], Any]:
            from jaxerr_ls.explain import explain_text

            workspace = Workspace(where or Path.cwd(), opened)
            explanations = explain_text(
                text,
                self.matcher(),
                reader=reader,
                workspace=workspace,
                jax_version=self.jax_release,
            )
            items = items_for(
                explanations, workspace, reader, origin, path_uri, self.settings.site_url
            )
            return [e.to_json() for e in explanations], items

        loop = asyncio.get_running_loop()
        result, items = await loop.run_in_executor(self.thread_pool, work)
        if self._latest.get(origin) == number:  # a newer call for this origin already won
            self.set_store(self.store.replace_origin(origin, items))
        return result

    def set_store(self, store: Store) -> None:
        touched = self.store.uris | store.uris
        self.store = store
        self.sync(touched)

    def pulls(self) -> bool:
        """Serve diagnostics by pull only when the client can also be told to pull again:
        a traceback arrives with no edit, and a pull-only client (Neovim 0.11 declares no
        refresh support) would not see it until its next edit. Others get pushes."""
        text = self.client_capabilities.text_document
        workspace = self.client_capabilities.workspace
        refresh = workspace.diagnostics if workspace else None
        return (
            text is not None
            and text.diagnostic is not None
            and refresh is not None
            and bool(refresh.refresh_support)
        )

    def sync(self, uris: frozenset[str]) -> None:
        """Tell the client: ask it to pull again, or push the URIs' diagnostics."""
        if self.pulls():
            self.workspace_diagnostic_refresh(None)
            return
        for uri in sorted(uris):
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=self.diagnostics(uri))
            )

    def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        codec = self.workspace.position_codec
        traceback = [to_diagnostic(i, self.lines_of, codec) for i in self.store.for_uri(uri)]
        return predict.merge(traceback, self.predictions.get(uri))

    # -- predicted diagnostics (rules over the open document's text) --
    def _run(self, job: predict.Analysis) -> asyncio.Future[predict.Diagnostics]:
        found = self.analyser.submit(job.kind, job.key, job.release, job.payload, job.interpreter)
        preload.warm_fixes()  # its warnings bring lightbulbs: their fixes load when quiet
        return asyncio.ensure_future(_converted(found, job.convert))

    def predict(self, client_uri: str, delay: float = predict.DEBOUNCE_SECONDS) -> None:
        """Recompute the document's predicted diagnostics after a pause in typing (a notebook
        cell's: its notebook's, the cells being one program)."""
        notebook = notebooks.notebook_of(self.workspace, client_uri)
        if notebook is not None:
            self.predict_notebook(notebook, delay)
            return
        uri = norm_uri(client_uri)

        def snapshot() -> tuple[int | None, str, Lines, Any] | None:
            if client_uri not in self.workspace.text_documents:
                return None
            doc = self.workspace.get_text_document(client_uri)
            return doc.version, doc.source, doc.lines, doc.position_codec

        self.predictions.schedule(uri, snapshot, self._run, self.sync, delay)

    def read_context(self, client_uri: str, delay: float = DEBOUNCE_SECONDS) -> None:
        """Have the worker read the document's call table for hovers after a pause in typing."""

        def snapshot() -> tuple[str, int] | None:
            if client_uri not in self.workspace.text_documents:
                return None
            source = self.workspace.get_text_document(client_uri).source
            return source, source.count("\n") + 1

        self.contexts.schedule(client_uri, snapshot, delay)

    def predict_notebook(self, notebook_uri: str, delay: float = DEBOUNCE_SECONDS) -> None:
        """Recompute the warnings of every code cell of the notebook, analysed together."""

        def prepare() -> predict.Job | None:
            cells = notebooks.code_cells(self.workspace, notebook_uri)
            if cells is None:
                return None
            codec, release = self.workspace.position_codec, self.predictions.jax_release

            def convert(found: Any) -> predict.Diagnostics:
                return predict.cell_diagnostics(cells, codec, found)

            payload = [(uri, text) for uri, text, _ in cells]
            interpreter = self.predictions.interpreter
            return predict.Analysis(
                "cells", key, release, payload, convert, interpreter=interpreter
            )

        key = notebooks.prediction_key(notebook_uri)
        self.predictions.schedule_job(key, prepare, self._run, self.sync, delay)

    def forget_prediction(self, client_uri: str) -> None:
        dropped = self.predictions.forget(norm_uri(client_uri))
        if dropped:
            self.sync(dropped)

    def forget_notebook_prediction(self, notebook_uri: str) -> None:
        dropped = self.predictions.forget(notebooks.prediction_key(notebook_uri))
        if dropped:
            self.sync(dropped)

    def set_predicting(self, enabled: bool) -> None:
        """Turn predictions on or off (the `jaxerr.predict` setting) for every open document."""
        if enabled == self.predictions.enabled:
            return
        self.predictions.enabled = enabled
        self.predictions.revision += 1
        if enabled:
            for uri in list(self.workspace.text_documents):
                if notebooks.notebook_of(self.workspace, uri) is None:
                    self.predict(uri, 0.0)
            for notebook in list(self.workspace.notebook_documents.values()):
                self.predict_notebook(notebook.uri, 0.0)
        else:
            dropped = self.predictions.forget_all()
            self.sync(dropped | frozenset(norm_uri(u) for u in self.workspace.text_documents))

    # -- code actions: computed once per (document version, cursor, context), in a thread --
    async def code_actions(self, request: actions.Request, key: Hashable) -> list[types.CodeAction]:
        if actions.nothing_to_offer(request):  # no catalog, no fixes, no parse needed
            return []
        found = self._actions.get(key)
        if found is None:
            catalog = await self.catalog()
            loop = asyncio.get_running_loop()
            found = loop.run_in_executor(
                self.thread_pool, actions.code_actions_of_large, request, catalog
            )
            # Editors ask again on every cursor move; one computation answers them all.
            self._actions[key] = found
            while len(self._actions) > ACTION_CACHE:
                del self._actions[next(iter(self._actions))]
        try:
            return await asyncio.shield(found)
        except Exception:
            self._actions.pop(key, None)
            raise

    # -- .jaxerr/*.txt --
    def start_polling(self) -> None:
        if self._poller is None:
            self._poller = asyncio.ensure_future(self._poll())

    async def _poll(self) -> None:
        while True:
            try:
                await self.rescan()
            except Exception:  # noqa: BLE001 - a bad file must not stop the watcher
                log.exception("scanning .jaxerr failed")
            await asyncio.sleep(POLL_SECONDS)

    async def rescan(self) -> None:
        async with self._scanning:
            now = scan(self.folders())
            changes = diff(self._stamps, now)
            self._stamps = now
            for path in changes.removed:
                self.set_store(self.store.replace_origin(path, ()))
            for path in changes.changed:
                text = read_text(path)
                if text is not None:
                    log.info("reading %s", path)
                    await self.explain(text, str(Path(path).parent.parent), path)


async def _converted(found: asyncio.Future[Any], convert: Any) -> predict.Diagnostics:
    result: predict.Diagnostics = convert(await found)
    return result
