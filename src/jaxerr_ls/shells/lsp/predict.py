"""Predicted diagnostics in the editor: the rules' findings as LSP Warnings, recomputed (debounced)
as the user types, merged with the traceback diagnostics without doubling them.

The rules are pure (`jaxerr_ls.rules`); this module converts positions at the edge and keeps the
latest findings per document. The analysis runs in a worker process (`worker.py`): the server's
requests never wait for it. A file is checked incrementally there (`rules.incremental`: an edit
re-analyses what it can change), and one analysis per document runs at a time: an edit made while
one runs waits for it, then the newest text is analysed; a superseded result is never published.
A file over MAX_LINES is not analysed (the log says so); closing a document cancels its analysis.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from jaxerr_ls.explain.diagnostics import SOURCE, Span
from jaxerr_ls.shells.lsp.analyser import Results, Stopped
from jaxerr_ls.shells.lsp.convert import Lines, client_range
from jaxerr_ls.shells.lsp.worker import Found

if TYPE_CHECKING:
    from jaxerr_ls.rules.base import Finding

log = logging.getLogger(__name__)

DEBOUNCE_SECONDS = 0.15
SETTING = "predict"
# Past this many lines a file is not analysed: its first analysis would take minutes (2,000
# lines: ~1 s on a quiet core, growing about linearly) and its memory hundreds of MB.
MAX_LINES = 20_000


def setting(options: Any) -> bool | None:
    """`jaxerr.predict` from initialization options or a configuration section, when given:
    {"predict": false}, {"jaxerr": {"predict": false}} or {"jaxerr.predict": false}."""
    if not isinstance(options, Mapping):
        return None
    for found in (
        options.get(SETTING),
        options.get(f"jaxerr.{SETTING}"),
        options.get("jaxerr", {}).get(SETTING)
        if isinstance(options.get("jaxerr"), Mapping)
        else None,
    ):
        if isinstance(found, bool):
            return found
    return None


def to_diagnostic(finding: Finding | Found, lines: Lines, codec: PositionCodec) -> types.Diagnostic:
    span = Span(finding.line, finding.column, finding.end_column)
    return types.Diagnostic(
        range=client_range(lines, codec, span),
        message=finding.message,
        severity=types.DiagnosticSeverity.Warning,
        source=SOURCE,
        code=finding.entry,
        data={"entry": finding.entry, "fields": dict(finding.fields), "predicted": True},
    )


def merge(
    traceback: Sequence[types.Diagnostic], predicted: Sequence[types.Diagnostic]
) -> list[types.Diagnostic]:
    """Traceback diagnostics, then the predicted ones no traceback diagnostic already gives
    (same entry on the same line)."""
    seen = {(d.code, d.range.start.line) for d in traceback}
    return [*traceback, *(d for d in predicted if (d.code, d.range.start.line) not in seen)]


def cell_diagnostics(
    cells: Sequence[tuple[str, str, Lines]], codec: PositionCodec, found: Results
) -> dict[str, tuple[types.Diagnostic, ...]]:
    """The worker's findings per cell as diagnostics; every cell listed (one whose warnings went
    is cleared)."""
    return {
        uri: tuple(to_diagnostic(f, lines, codec) for f in found.get(uri, ()))
        for uri, _, lines in cells
    }


Diagnostics = Mapping[str, tuple[types.Diagnostic, ...]]


@dataclass(frozen=True)
class Analysis:
    """A job for the worker process: `kind` "file" (payload: the text) or "cells" (payload:
    [(cell URI, text)]); `convert` turns its findings into each URI's diagnostics (on the event
    loop); `version` is the document version it reads (None for a notebook)."""

    kind: str
    key: str
    release: str | None
    payload: Any
    convert: Callable[[Results], Diagnostics]
    version: int | None = None
    interpreter: str | None = None  # whose JAX answers the shape rules (None: the worker's)


# What a prediction computes (an `Analysis` for the worker, or a callable in the tests' threads).
Job = Any
# Takes the documents' text on the event loop and returns the job; None when they are closed.
Prepare = Callable[[], Job | None]
Run = Callable[[Job], "asyncio.Future[Diagnostics]"]


class Predictions:
    """The latest predicted diagnostics per document URI, recomputed after a quiet pause.

    A prediction is scheduled under a key: a file's URI (it speaks for that file), or a notebook's
    key (it speaks for every code cell of the notebook, analysed together)."""

    def __init__(self) -> None:
        self.enabled = True
        self.revision = 0
        self._by_uri: dict[str, tuple[types.Diagnostic, ...]] = {}
        self._owned: dict[str, frozenset[str]] = {}  # key -> the URIs its last run spoke for
        self._pending: dict[str, asyncio.Task[None]] = {}
        # The analysis running for a key: a newer one waits for it (never two at once).
        self._running: dict[str, asyncio.Future[Any]] = {}
        # The document version each URI's diagnostics were computed from (code actions use
        # them only for that version).
        self._versions: dict[str, int | None] = {}
        # The project's JAX release (the `jaxerr.interpreter` setting), when known.
        self.jax_release: str | None = None
        # Tells the worker to stop a key's analysis and drop its state (set by the server).
        self.cancel: Callable[[str], None] = lambda key: None
        self._too_big: dict[str, int] = {}  # URI -> line count last logged as over MAX_LINES
        self.interpreter: str | None = None  # whose JAX answers the shape rules (None: ours)

    def get(self, uri: str) -> tuple[types.Diagnostic, ...]:
        found = self._by_uri.get(uri, ())
        return found if self.enabled else ()

    def current(self, uri: str, version: int | None) -> tuple[types.Diagnostic, ...] | None:
        """The URI's diagnostics when the last analysis read this `version`, else None."""
        if not self.enabled or version is None or uri not in self._by_uri:
            return None
        return self._by_uri[uri] if self._versions.get(uri) == version else None

    def forget(self, key: str) -> frozenset[str]:
        """Stop predicting `key` and drop what it said; returns the URIs that had a prediction."""
        task = self._pending.pop(key, None)
        if task is not None:
            task.cancel()
        self.cancel(key)
        owned = self._owned.pop(key, frozenset({key}))
        for uri in owned:
            self._versions.pop(uri, None)
        dropped = frozenset(uri for uri in owned if self._by_uri.pop(uri, None) is not None)
        if dropped:
            self.revision += 1
        return dropped

    def forget_all(self) -> frozenset[str]:
        """Stop every prediction (the setting was turned off); returns the URIs that had one."""
        for task in self._pending.values():
            task.cancel()
        for key in {*self._pending, *self._owned, *self._running}:
            self.cancel(key)
        self._pending.clear()
        self._owned.clear()
        self._versions.clear()
        dropped = frozenset(self._by_uri)
        self._by_uri.clear()
        if dropped:
            self.revision += 1
        return dropped

    def schedule(
        self,
        uri: str,
        snapshot: Callable[[], tuple[int | None, str, Lines, PositionCodec] | None],
        run: Run,
        publish: Callable[[frozenset[str]], None],
        delay: float = DEBOUNCE_SECONDS,
    ) -> None:
        """Recompute file `uri` after `delay` without a newer edit; then `publish` if it changed."""

        def prepare() -> Job | None:
            taken = snapshot()
            if taken is None:
                return None
            version, source, lines, codec = taken
            if len(lines) > MAX_LINES:
                if self._too_big.get(uri) != len(lines):
                    self._too_big[uri] = len(lines)
                    log.info(
                        "%s: %d lines, over the %d analysed: no predicted warnings",
                        uri,
                        len(lines),
                        MAX_LINES,
                    )
                return None
            self._too_big.pop(uri, None)

            def convert(found: Results) -> Diagnostics:
                return {uri: tuple(to_diagnostic(f, lines, codec) for f in found.get(uri, ()))}

            release, interpreter = self.jax_release, self.interpreter
            return Analysis("file", uri, release, source, convert, version, interpreter)

        self.schedule_job(uri, prepare, run, publish, delay)

    def schedule_job(
        self,
        key: str,
        prepare: Prepare,
        run: Run,
        publish: Callable[[frozenset[str]], None],
        delay: float = DEBOUNCE_SECONDS,
    ) -> None:
        """Run `prepare()`'s job after `delay` without a newer call for `key`; then `publish` the
        URIs whose diagnostics changed (a URI the key spoke for before and not now is cleared)."""
        if not self.enabled:
            return
        previous = self._pending.pop(key, None)
        if previous is not None:
            previous.cancel()
        self._pending[key] = asyncio.ensure_future(self._update(key, prepare, run, publish, delay))

    async def _update(
        self,
        key: str,
        prepare: Prepare,
        run: Run,
        publish: Callable[[frozenset[str]], None],
        delay: float,
    ) -> None:
        await asyncio.sleep(delay)
        running = self._running.get(key)
        if running is not None:
            # Wait for the analysis in flight (cancelling this task does not cancel it).
            await asyncio.wait({running})
        job = prepare()
        if job is None:
            return
        try:
            future = run(job)
        except Exception:  # noqa: BLE001 - no worker (the server is stopping): nothing shown
            log.exception("predicting %s failed", key)
            return
        self._running[key] = future
        future.add_done_callback(lambda done: self._finished(key, done))
        await asyncio.wait({future})  # a newer edit cancels this task, not the analysis
        try:
            results = future.result()
        except Stopped as why:  # cancelled, or over its time budget: the last one stays shown
            log.info("predicting %s stopped: %s", key, why)
            return
        except Exception:  # noqa: BLE001 - a failed prediction leaves the last one shown
            log.exception("predicting %s failed", key)
            return
        if self._pending.get(key) is not asyncio.current_task():
            return  # a newer edit is being predicted
        self._pending.pop(key, None)
        changed: set[str] = set()
        for uri in self._owned.get(key, frozenset()) - results.keys():
            if self._by_uri.pop(uri, None) is not None:
                changed.add(uri)
        for uri, diagnostics in results.items():
            before = self._by_uri.get(uri)
            self._by_uri[uri] = diagnostics
            if before is None or before != diagnostics:
                changed.add(uri)
        self._owned[key] = frozenset(results)
        for uri in results:
            self._versions[uri] = job.version if isinstance(job, Analysis) else None
        if changed:
            self.revision += 1
            publish(frozenset(changed))

    def _finished(self, key: str, future: asyncio.Future[Any]) -> None:
        if self._running.get(key) is future:
            del self._running[key]
