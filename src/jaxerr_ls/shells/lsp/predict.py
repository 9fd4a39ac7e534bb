"""Predicted diagnostics in the editor: the rules' findings as LSP Warnings, recomputed (debounced)
as the user types, merged with the traceback diagnostics without doubling them.

The rules are pure (`jaxerr_ls.rules`); this module converts positions at the edge and keeps the
latest findings per document. A file is checked incrementally (`rules.incremental`: an edit
re-analyses what it can change), and one analysis per document runs at a time: an edit made while
one runs waits for it, then the newest text is analysed; a superseded result is never published.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from jaxerr_ls.explain.diagnostics import SOURCE, Span
from jaxerr_ls.shells.lsp.convert import Lines, client_range

if TYPE_CHECKING:
    from jaxerr_ls.rules.base import Finding
    from jaxerr_ls.rules.incremental import IncrementalChecker

log = logging.getLogger(__name__)

DEBOUNCE_SECONDS = 0.15
SETTING = "predict"


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


def findings_for(
    source: str, jax_release: str | None = None, interpreter: str | None = None
) -> list[Finding]:
    """Worker-thread entry: the rules over the document's text (nothing when it does not parse);
    JAX names are checked against `jax_release` (None: the JAX installed beside the server)."""
    from jaxerr_ls.rules import check_source, rules_for

    return check_source(source, rules_for(jax_release, interpreter))


def checker_for(jax_release: str | None, interpreter: str | None = None) -> IncrementalChecker:
    """A document's incremental checker (the rules of `jax_release`, shapes asked of the JAX of
    `interpreter`); built in a worker thread."""
    from jaxerr_ls.rules import rules_for
    from jaxerr_ls.rules.incremental import IncrementalChecker

    return IncrementalChecker(rules_for(jax_release, interpreter))


def to_diagnostic(finding: Finding, lines: Lines, codec: PositionCodec) -> types.Diagnostic:
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


def notebook_diagnostics(
    cells: Sequence[tuple[str, str, Lines]],
    codec: PositionCodec,
    jax_release: str | None = None,
    interpreter: str | None = None,
) -> dict[str, tuple[types.Diagnostic, ...]]:
    """Worker-thread entry: a notebook's code cells, (URI, text, lines) in notebook order,
    analysed as one program; each cell's warnings on that cell (every cell listed, so that a
    cell whose warnings went is cleared)."""
    from jaxerr_ls.rules import check_cells, rules_for

    lines_of = {uri: lines for uri, _, lines in cells}
    found: dict[str, list[types.Diagnostic]] = {uri: [] for uri in lines_of}
    for uri, finding in check_cells(
        [(u, text) for u, text, _ in cells], rules_for(jax_release, interpreter)
    ):
        found[uri].append(to_diagnostic(finding, lines_of[uri], codec))
    return {uri: tuple(diagnostics) for uri, diagnostics in found.items()}


# What a prediction computes in a worker thread: the diagnostics of each URI it speaks for.
Job = Callable[[], Mapping[str, tuple[types.Diagnostic, ...]]]
# Takes the documents' text on the event loop and returns the job; None when they are closed.
Prepare = Callable[[], Job | None]
Run = Callable[[Job], "asyncio.Future[Mapping[str, tuple[types.Diagnostic, ...]]]"]


class _Slot:
    """A document's incremental checker, made by its first analysis; one analysis at a time
    uses it (the scheduling below)."""

    def __init__(self) -> None:
        self.checker: IncrementalChecker | None = None


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
        # Per file URI: (the release its checker reads, the checker), kept between edits.
        self._checkers: dict[str, tuple[str | None, _Slot]] = {}
        # The project's JAX release (the `jaxerr.interpreter` setting), when known.
        self.jax_release: str | None = None
        self.interpreter: str | None = None  # whose JAX answers the shape rules (None: ours)

    def get(self, uri: str) -> tuple[types.Diagnostic, ...]:
        found = self._by_uri.get(uri, ())
        return found if self.enabled else ()

    def forget(self, key: str) -> frozenset[str]:
        """Stop predicting `key` and drop what it said; returns the URIs that had a prediction."""
        task = self._pending.pop(key, None)
        if task is not None:
            task.cancel()
        self._checkers.pop(key, None)
        owned = self._owned.pop(key, frozenset({key}))
        dropped = frozenset(uri for uri in owned if self._by_uri.pop(uri, None) is not None)
        if dropped:
            self.revision += 1
        return dropped

    def forget_all(self) -> frozenset[str]:
        """Stop every prediction (the setting was turned off); returns the URIs that had one."""
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()
        self._owned.clear()
        self._checkers.clear()
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
            _, source, lines, codec = taken
            release, interpreter = self.jax_release, self.interpreter
            kept = self._checkers.get(uri)
            if kept is None or kept[0] != release:
                kept = self._checkers[uri] = (release, _Slot())
            slot = kept[1]

            def job() -> Mapping[str, tuple[types.Diagnostic, ...]]:
                if slot.checker is None:  # built in the worker: the rules are imported there
                    slot.checker = checker_for(release, interpreter)
                findings = slot.checker.check(source)
                return {uri: tuple(to_diagnostic(f, lines, codec) for f in findings)}

            return job

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
        if changed:
            self.revision += 1
            publish(frozenset(changed))

    def _finished(self, key: str, future: asyncio.Future[Any]) -> None:
        if self._running.get(key) is future:
            del self._running[key]
