"""`%load_ext jaxerr_ls` (IPython, Jupyter, Colab) and `jaxerr_ls.install()` (plain Python).

Both act only after the usual traceback has been shown: IPython's `post_run_cell` event runs once
the cell's traceback is out, and the excepthook calls the previous hook first. So the original
traceback is never hidden or replaced; an error that matches no catalog entry adds nothing; a
failure inside the handler is one log line. IPython is imported by IPython itself, never here.
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any

from jaxerr_ls.render.terminal import Style
from jaxerr_ls.shells.ipython import live

log = logging.getLogger("jaxerr_ls")

_registered: dict[int, Callable[[Any], None]] = {}  # id(shell) -> its post_run_cell callback
_previous_hook: Callable[[type[BaseException], BaseException, TracebackType | None], Any] | None = (
    None
)


def _explain_in_shell(result: Any) -> None:
    error = getattr(result, "error_in_exec", None)
    if not isinstance(error, Exception):
        return
    try:
        match = live.match_for(error)
        if match is None:
            return
        how = live.how_identified(match, type(error).__name__)
        # IPython is running (it called us): imported by name so it stays an optional dependency
        display: Any = importlib.import_module("IPython.display").display
        # One bundle: notebooks render the HTML, terminal IPython prints the text.
        bundle = {
            "text/plain": live.as_text(match.entry, how=how),
            "text/html": live.as_html(match.entry),
        }
        display(bundle, raw=True)
    except Exception as failure:  # noqa: BLE001 - the user's error matters, not ours
        log.warning("jaxerr-ls: could not explain %s: %r", type(error).__name__, failure)


def load_ipython_extension(shell: Any) -> None:
    if id(shell) in _registered:
        return
    _registered[id(shell)] = _explain_in_shell
    shell.events.register("post_run_cell", _explain_in_shell)


def unload_ipython_extension(shell: Any) -> None:
    callback = _registered.pop(id(shell), None)
    if callback is not None:
        shell.events.unregister("post_run_cell", callback)


def _hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
    (_previous_hook or sys.__excepthook__)(kind, error, tb)
    if not isinstance(error, Exception):
        return  # KeyboardInterrupt, SystemExit: nothing to explain
    try:
        match = live.match_for(error)
        if match is not None:
            style = Style(color=sys.stderr.isatty())
            how = live.how_identified(match, kind.__name__)
            sys.stderr.write(live.as_text(match.entry, style, how))
            sys.stderr.flush()
    except Exception as failure:  # noqa: BLE001
        log.warning("jaxerr-ls: could not explain %s: %r", kind.__name__, failure)


def install() -> None:
    """Explain uncaught JAX errors of this process on stderr, after their traceback."""
    global _previous_hook
    if sys.excepthook is not _hook:
        _previous_hook = sys.excepthook
        sys.excepthook = _hook


def uninstall() -> None:
    """Put back the excepthook that was there before `install()`."""
    global _previous_hook
    if sys.excepthook is _hook:
        sys.excepthook = _previous_hook or sys.__excepthook__
    _previous_hook = None
