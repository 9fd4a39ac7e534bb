"""Hover in context, off the interactive path (issues 19 and 20).

What a call risks on its line (`analysis/call_shape.py`) needs the whole file read: its tree
parsed and walked (~0.1 s for 2,000 lines). A hover must not do that, so each text is read once
into a call table, and a hover only looks its line up (microseconds):
- a small file (up to CHEAP_LINES lines) is read here, on its first hover (a few ms), and its
  table kept for the next ones;
- a larger one is read by the analysis worker (`worker.py`, on a thread of its own there, so an
  analysis running does not hold it up), when the document opens, after a pause in typing, or when
  a hover finds no table for its text. Until the table of the current text is in, hovers show the
  API's errors without the context; a table of an older text is never used (its lines moved).
A file over `call_shape.MAX_LINES` lines gets no table at all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jaxerr_ls.analysis.call_shape import CallTable

log = logging.getLogger(__name__)

CHEAP_LINES = 400  # ~5 ms to read here on the first hover; larger files: the worker's
DEBOUNCE_SECONDS = 0.15  # as the predictions': a table per pause in typing, not per keystroke
KEY_SUFFIX = "#context"  # the worker's key for a document's tables (its analyses use the URI)

# Submits a text to the worker: (key, source) -> the table (or None when it does not parse).
Submit = Callable[[str, str], "asyncio.Future[Any]"]


def max_lines() -> int:
    from jaxerr_ls.analysis.call_shape import MAX_LINES

    return MAX_LINES


class Contexts:
    """The latest call table per document URI, keyed by the text it was read from."""

    def __init__(self, submit: Submit) -> None:
        self._submit = submit
        self._tables: dict[str, tuple[str, CallTable | None]] = {}
        self._asked: dict[str, tuple[str, asyncio.Future[Any]]] = {}  # the text in the worker
        self._pending: dict[str, asyncio.Task[None]] = {}

    def table(self, uri: str, source: str, line_count: int) -> CallTable | None:
        """The table of this very text, when it is ready; else None (and the worker is asked)."""
        kept = self._tables.get(uri)
        if kept is not None and (kept[0] is source or kept[0] == source):
            return kept[1]
        if line_count <= CHEAP_LINES:
            from jaxerr_ls.analysis.call_shape import call_table

            table = call_table(source)
            self._tables[uri] = (source, table)
            return table
        self.ask(uri, source, line_count)
        return None

    def schedule(
        self,
        uri: str,
        snapshot: Callable[[], tuple[str, int] | None],
        delay: float = DEBOUNCE_SECONDS,
    ) -> None:
        """Have the worker read the document's text after `delay` without a newer edit."""
        previous = self._pending.pop(uri, None)
        if previous is not None:
            previous.cancel()

        async def later() -> None:
            await asyncio.sleep(delay)
            self._pending.pop(uri, None)
            taken = snapshot()
            if taken is not None:
                self.ask(uri, *taken)

        self._pending[uri] = asyncio.ensure_future(later())

    def ask(self, uri: str, source: str, line_count: int) -> None:
        """Send the text to the worker, unless it has it already or it is small or too large."""
        if line_count <= CHEAP_LINES or line_count > max_lines():
            return
        kept = self._tables.get(uri)
        if kept is not None and kept[0] == source:
            return
        asked = self._asked.get(uri)
        if asked is not None and asked[0] == source and not asked[1].done():
            return
        try:
            future = self._submit(uri + KEY_SUFFIX, source)
        except Exception:  # noqa: BLE001 - no worker (the server is stopping): no context
            log.exception("reading %s for hovers failed", uri)
            return
        self._asked[uri] = (source, future)
        future.add_done_callback(lambda done: self._arrived(uri, source, done))

    def _arrived(self, uri: str, source: str, future: asyncio.Future[Any]) -> None:
        asked = self._asked.get(uri)
        if asked is None or asked[1] is not future:
            return  # a newer text was sent since, or the document closed
        del self._asked[uri]
        if future.cancelled():
            return
        if future.exception() is not None:
            log.info("reading %s for hovers: %s", uri, future.exception())
            return
        self._tables[uri] = (source, future.result())

    def forget(self, uri: str) -> None:
        """The document closed: drop its table (a late answer is dropped too)."""
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self._tables.pop(uri, None)
        self._asked.pop(uri, None)
