"""`jaxerr-ls run -- CMD`: run a program, pass its output through, keep its traceback.

stdout is inherited untouched (the program keeps its terminal); stderr is teed byte for byte, live,
through a pipe so the traceback can be kept. `.jaxerr/` is created before the program starts because
editors miss file events when a folder appears together with its first file.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from types import FrameType

from jaxerr_ls.explain.files import JAXERR_DIR, LAST_RUN

# Only the tail of stderr is kept: the traceback is at the end, and a chatty program must not grow
# our memory without bound.
KEEP_BYTES = 1 << 20
_CHUNK = 65536


def _tee(source: int, sink: int, kept: bytearray) -> None:
    """Copy `source` to `sink` as bytes arrive, keeping the last KEEP_BYTES."""
    while True:
        try:
            chunk = os.read(source, _CHUNK)
        except OSError:
            break
        if not chunk:
            break
        view = memoryview(chunk)
        while view:
            try:
                written = os.write(sink, view)
            except OSError:
                break  # our stderr is gone; keep draining so the program is not blocked
            view = view[written:]
        kept.extend(chunk)
        if len(kept) > 2 * KEEP_BYTES:
            del kept[: len(kept) - KEEP_BYTES]
    os.close(source)


def exit_status(returncode: int) -> int:
    """The shell's convention: a program killed by signal N exits with 128 + N."""
    return 128 - returncode if returncode < 0 else returncode


def traceback_text(stderr: bytes) -> str | None:
    """The program's stderr as text when it holds a traceback we can parse."""
    from jaxerr_ls.tracebacks import parse_tracebacks

    text = stderr[-KEEP_BYTES:].decode("utf-8", errors="replace")
    return text if parse_tracebacks(text) else None


def run_command(command: list[str], root: Path) -> int:
    """Run `command`; return its exit status (128 + N when killed by signal N)."""
    directory = root / JAXERR_DIR
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"jaxerr-ls run: cannot create {directory}: {exc}", file=sys.stderr)
    status, kept = run_teeing(command, "jaxerr-ls run")
    if status == 0 or not _report(kept, directory, root):
        # A clean run (or one without a traceback) makes the last traceback stale: removing it
        # clears the editor's squiggles.
        with contextlib.suppress(OSError):
            (directory / LAST_RUN).unlink(missing_ok=True)
    return status


def run_teeing(command: list[str], who: str) -> tuple[int, bytes]:
    """Run `command` with stdout inherited and stderr teed live; (status, the tail of stderr).

    A command that cannot start gives 127 (not found) or 126 and a message naming `who`."""
    try:
        child = subprocess.Popen(command, stderr=subprocess.PIPE)
    except OSError as exc:
        print(f"{who}: cannot run {command[0]}: {exc.strerror or exc}", file=sys.stderr)
        return (127 if isinstance(exc, FileNotFoundError) else 126), b""
    assert child.stderr is not None
    kept = bytearray()
    reader = threading.Thread(
        target=_tee, args=(os.dup(child.stderr.fileno()), sys.stderr.fileno(), kept), daemon=True
    )
    child.stderr.close()
    reader.start()
    status = _wait(child)
    reader.join()
    return status, bytes(kept[-KEEP_BYTES:])


def _wait(child: subprocess.Popen[bytes]) -> int:
    """Wait for the child; Ctrl-C reaches it through the terminal, SIGTERM is forwarded."""

    def forward(signum: int, _frame: FrameType | None) -> None:
        child.send_signal(signum)

    previous_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    previous_term = signal.signal(signal.SIGTERM, forward)
    try:
        return exit_status(child.wait())
    finally:
        signal.signal(signal.SIGINT, previous_int)
        signal.signal(signal.SIGTERM, previous_term)


def _report(stderr: bytes, directory: Path, root: Path) -> bool:
    """Save and explain the traceback in `stderr`; False when there is none."""
    text = traceback_text(stderr)
    if text is None:
        return False
    try:
        (directory / LAST_RUN).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"jaxerr-ls run: cannot write {directory / LAST_RUN}: {exc}", file=sys.stderr)
    try:
        summary = explain_summary(text, root)
    except Exception as exc:  # noqa: BLE001 - the program's status matters more than our summary
        summary = f"jaxerr-ls: could not explain the traceback: {exc}\n"
    sys.stderr.write(summary)
    sys.stderr.flush()
    return True


def explain_summary(text: str, root: Path) -> str:
    """A short explanation of the last traceback, for after the program's output."""
    from jaxerr_ls.catalog import Matcher, load_catalog
    from jaxerr_ls.explain import explain_text
    from jaxerr_ls.render.terminal import Style, render_explanation

    explanations = explain_text(text, Matcher(load_catalog()), root=root)
    if not explanations:
        return ""
    color = sys.stderr.isatty() and "NO_COLOR" not in os.environ
    body = "\n".join(render_explanation(explanations[-1], Style(color=color)))
    rule = "-" * 60
    where = f"{JAXERR_DIR}/{LAST_RUN}"
    return f"\n{rule}\njaxerr-ls: {body}\n(saved to {where} for the editor)\n"
