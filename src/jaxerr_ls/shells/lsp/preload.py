"""Load the catalog in a thread, started just before the server reads its first message.

The first hover needs the catalog; loading it while the client's `initialize` is answered means
the hover rarely waits. Started after the LSP libraries are imported, not during: two threads
importing and parsing at once fight over the GIL and both get slower (spawn -> initialize grew by
~0.5 s when the load ran during the imports).

The future is marked running before the thread starts, so `cancel()` on it fails: a request
cancelled while it awaits the catalog (`asyncio.wrap_future` passes the cancellation on to the
future it wraps) must not cancel the catalog for every later request. Before, VS Code cancelling
one early code action left the server answering no hover and no traceback until restarted.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jaxerr_ls.catalog import Catalog

CATALOG: Future[Catalog] = Future()
_started = threading.Lock()


def _load() -> None:
    try:
        from jaxerr_ls.catalog import load_catalog

        CATALOG.set_result(load_catalog())
    except BaseException as exc:  # noqa: BLE001 - handed to whoever awaits the catalog
        CATALOG.set_exception(exc)


def start() -> Future[Catalog]:
    """Begin loading (once); the future holds the catalog or the loading error."""
    if _started.acquire(blocking=False):
        CATALOG.set_running_or_notify_cancel()
        threading.Thread(target=_load, name="jaxerr-catalog", daemon=True).start()
    return CATALOG
