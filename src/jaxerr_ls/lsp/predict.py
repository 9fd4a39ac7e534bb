"""Predicted diagnostics in the editor: the rules' findings as LSP Warnings, recomputed (debounced)
as the user types, merged with the traceback diagnostics without doubling them.

The rules are pure (`jaxerr_ls.rules`); this module converts positions at the edge and keeps the
latest findings per document.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from jaxerr_ls.diagnostics import SOURCE, Span
from jaxerr_ls.lsp.convert import Lines, client_range

if TYPE_CHECKING:
    from jaxerr_ls.rules.base import Finding

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


def findings_for(source: str) -> list[Finding]:
    """Worker-thread entry: the rules over the document's text (nothing when it does not parse)."""
    from jaxerr_ls.rules import check_source

    return check_source(source)


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


@dataclass(frozen=True)
class Predicted:
    version: int | None
    diagnostics: tuple[types.Diagnostic, ...]


class Predictions:
    """The latest predicted diagnostics per document URI, recomputed after a quiet pause."""

    def __init__(self) -> None:
        self.enabled = True
        self.revision = 0
        self._by_uri: dict[str, Predicted] = {}
        self._pending: dict[str, asyncio.Task[None]] = {}

    def get(self, uri: str) -> tuple[types.Diagnostic, ...]:
        found = self._by_uri.get(uri)
        return found.diagnostics if found is not None and self.enabled else ()

    def forget(self, uri: str) -> bool:
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        dropped = self._by_uri.pop(uri, None) is not None
        if dropped:
            self.revision += 1
        return dropped

    def schedule(
        self,
        uri: str,
        snapshot: Callable[[], tuple[int | None, str, Lines, PositionCodec] | None],
        run: Callable[[Callable[[], list[Finding]]], asyncio.Future[list[Finding]]],
        publish: Callable[[str], None],
        delay: float = DEBOUNCE_SECONDS,
    ) -> None:
        """Recompute `uri` after `delay` without a newer edit; then `publish(uri)` if it changed."""
        if not self.enabled:
            return
        previous = self._pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        self._pending[uri] = asyncio.ensure_future(self._update(uri, snapshot, run, publish, delay))

    async def _update(
        self,
        uri: str,
        snapshot: Callable[[], tuple[int | None, str, Lines, PositionCodec] | None],
        run: Callable[[Callable[[], list[Finding]]], asyncio.Future[list[Finding]]],
        publish: Callable[[str], None],
        delay: float,
    ) -> None:
        await asyncio.sleep(delay)
        taken = snapshot()
        if taken is None:
            return
        version, source, lines, codec = taken
        try:
            findings = await run(lambda: findings_for(source))
        except Exception:  # noqa: BLE001 - a failed prediction leaves the last one shown
            log.exception("predicting %s failed", uri)
            return
        if self._pending.get(uri) is not asyncio.current_task():
            return  # a newer edit is being predicted
        self._pending.pop(uri, None)
        diagnostics = tuple(to_diagnostic(f, lines, codec) for f in findings)
        before = self._by_uri.get(uri)
        self._by_uri[uri] = Predicted(version, diagnostics)
        if before is None or before.diagnostics != diagnostics:
            self.revision += 1
            publish(uri)
