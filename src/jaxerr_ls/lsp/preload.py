"""Start loading the catalog at once, in a thread, before the LSP libraries are imported.

The first hover needs the catalog; loading it while lsprotocol and pygls import and the client
sends `initialize` means the hover rarely waits. Only the standard library is imported here.
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
        threading.Thread(target=_load, name="jaxerr-catalog", daemon=True).start()
    return CATALOG


start()
