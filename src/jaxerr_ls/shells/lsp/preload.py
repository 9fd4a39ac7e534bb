"""Load what hovers read first, then the catalog, in a thread started just before the server
reads its first message.

The first hover reads the hover index (`catalog/hover_index.py`: the header, then the entries of
the API under the cursor), not the whole catalog. The catalog (code actions with a diagnostic and
tracebacks need it) loads behind it when the editor has been quiet for QUIET_SECONDS, or at once
when something needs it (`need()`): reading it holds the interpreter for a while (13,800 entries
with XLA's and the libraries'), and hovers must not wait behind it. When there is no index yet
(the first start, or a catalog file changed), a child process loads the catalog and writes the
cached copy and the index, so that the parsing never holds this interpreter; the server then
reads the index, and the copy later.

Started after the LSP libraries are imported, not during: two threads importing and parsing at
once fight over the GIL and both get slower (spawn -> initialize grew by ~0.5 s when the load ran
during the imports). Started later (on `initialized`), the first hover waited for the thread's
imports instead (4 s on a loaded machine against 0.07 s).

The futures are marked running before the thread starts, so `cancel()` on them fails: a request
cancelled while it awaits the catalog (`asyncio.wrap_future` passes the cancellation on to the
future it wraps) must not cancel the catalog for every later request. Before, VS Code cancelling
one early code action left the server answering no hover and no traceback until restarted.
"""

from __future__ import annotations

import gc
import logging
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING

from jaxerr_ls.shells.lsp.worker import child_env

if TYPE_CHECKING:
    from jaxerr_ls.catalog import Catalog
    from jaxerr_ls.catalog.hover_index import HoverSource

log = logging.getLogger(__name__)

CATALOG: Future[Catalog] = Future()
HOVER: Future[HoverSource] = Future()
_started = threading.Lock()
_fixes_started = threading.Lock()
_needed = threading.Event()
_last_request = [0.0]  # monotonic time of the latest interactive request
QUIET_SECONDS = 0.5
LATEST_SECONDS = 10.0  # the catalog loads by then, however busy the editor
BUILD_SECONDS = 300.0
_BUILD = "from jaxerr_ls.catalog.load import load_catalog; load_catalog(with_hover_index=True)"


def _load() -> None:
    try:
        from jaxerr_ls.catalog.hover_index import FromCatalog, HoverIndex
        from jaxerr_ls.catalog.load import load_catalog, locate

        found = locate()
        hover = found.hover
        index = HoverIndex.open(hover) if hover is not None else None
        if index is None and hover is not None:  # first start, or a catalog file changed
            _build_elsewhere()
            index = HoverIndex.open(hover)
        if index is not None:
            HOVER.set_result(index)
            _wait_for_quiet()
        # The cyclic collector would walk the heap several times while ~150,000 objects are
        # made, holding the interpreter for 50-70 ms each time (hovers wait): off while the
        # catalog loads, and the loaded objects are frozen out of every later collection.
        gc.disable()
        try:
            catalog = load_catalog(with_hover_index=True)
        finally:
            gc.enable()
        gc.freeze()
        give_back()
        CATALOG.set_result(catalog)
        if not HOVER.done():
            HOVER.set_result(FromCatalog(catalog))
    except BaseException as exc:  # noqa: BLE001 - handed to whoever awaits the catalog
        for future in (HOVER, CATALOG):
            if not future.done():
                future.set_exception(exc)


def give_back() -> None:
    """Return the memory a big load freed to the system. Unpickling the catalog leaves ~10 MB of
    freed heap that glibc keeps for the process (the server's RSS stays 10 MB higher for good);
    `malloc_trim` hands it back. Nothing on other C libraries."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _wait_for_quiet(needed: threading.Event = _needed) -> None:
    began = time.monotonic()
    while not needed.is_set():
        now = time.monotonic()
        if now - began >= LATEST_SECONDS:
            return
        quiet = now - max(_last_request[0], began)
        if quiet >= QUIET_SECONDS:
            return
        needed.wait(QUIET_SECONDS - quiet)


def warm_fixes() -> None:
    """A document is being analysed: its warnings bring code actions (a refactoring where one
    warns). The fixes and parso's grammar (~0.25 s of imports, ~6 MB) load in a thread once the
    editor is quiet, not in the first code action's answer. Once per server."""
    if _fixes_started.acquire(blocking=False):
        threading.Thread(target=_warm_fixes, name="jaxerr-fixes", daemon=True).start()


def _warm_fixes() -> None:
    _wait_for_quiet(threading.Event())  # quiet, even when the catalog was needed at once
    try:
        import jaxerr_ls.fixes.offer  # noqa: F401 - loaded for the first code action
        from jaxerr_ls.fixes.syntax import parse

        parse("x = 1\n")  # parso loads its grammar on the first parse
    except Exception as exc:  # noqa: BLE001 - the code action reports it when it needs them
        log.debug("fixes not preloaded: %s", exc)


def touch() -> None:
    """An interactive request came: the catalog's load waits for a quiet moment."""
    _last_request[0] = time.monotonic()


def need() -> Future[Catalog]:
    """The catalog, loaded now (something waits for it)."""
    _needed.set()
    return start()


def _build_elsewhere() -> None:
    """Parse the catalog in a child process (it writes the cached copy and the hover index);
    on any failure the load below parses it here instead."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _BUILD],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=BUILD_SECONDS,
            check=False,
            env=child_env(),
        )
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("catalog not prepared in a child process (%s); loading it here", exc)
        return
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
        log.warning("catalog not prepared in a child process (%s); loading it here", tail)


def start() -> Future[Catalog]:
    """Begin loading (once; the catalog itself when quiet or needed); the future holds the
    catalog or the loading error."""
    if _started.acquire(blocking=False):
        CATALOG.set_running_or_notify_cancel()
        HOVER.set_running_or_notify_cancel()
        threading.Thread(target=_load, name="jaxerr-catalog", daemon=True).start()
    return CATALOG


def hover_source() -> Future[HoverSource]:
    """What hovers read: the hover index (the catalog when there is none)."""
    touch()
    start()
    return HOVER
