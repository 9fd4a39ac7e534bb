"""The analysis worker: a child process of the language server that runs the predictive rules.

The rules take seconds on a large file (a first analysis of 2,000 lines: ~1 s on a quiet core);
in the server's interpreter they held the GIL while hovers waited. Here they run in a process of
their own, at a lower priority, so the server's requests never wait for them and never share a
core with them.

Protocol (stdin -> worker, stdout -> server): frames of a 4-byte big-endian length and a pickle
of a tuple. The server is this process's parent and its only peer, so pickle is safe here.
  ("file", job, key, rules, source)        analyse a file (incrementally, per key)
  ("cells", job, key, rules, [(uri, src)]) analyse a notebook's code cells as one program
  (rules: (JAX release, interpreter whose JAX answers the shape rules), each None when unknown)
  ("cancel", key)                             stop the key's running job, drop its queued ones
                                              and its incremental state (the document closed)
  ("context", job, key, None, source)         read a text's call table for hovers
                                              (`analysis/call_shape.py`)
  -> ("done", job, {uri: [Found, ...]} or the CallTable | None)  |  ("stopped", job, why)
     |  ("failed", job, message)
A job that runs longer than BUDGET_SECONDS is stopped and reported as such. Context jobs run on a
thread of their own, in the order they come: a table takes ~0.1 s for 2,000 lines, and must not
wait seconds behind an analysis (the hovers show no context until it is in).
"""

from __future__ import annotations

import _thread
import contextlib
import os
import pickle
import queue
import signal
import struct
import sys
import threading
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Mapping

    from jaxerr_ls.rules.incremental import IncrementalChecker

HEADER = struct.Struct("!I")
BUDGET_SECONDS = 60.0  # JAXERR_LS_ANALYSIS_BUDGET (seconds) changes it
NICENESS = 2  # 10 starved it behind two busy processes (predictions took > 20 s)


class Found(NamedTuple):
    """A rule's finding as plain data (the attributes of `jaxerr_ls.rules.Finding`): the server
    converts it without importing the rules."""

    entry: str
    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    rule: str
    fields: Mapping[str, str]


def child_env() -> dict[str, str]:
    """The environment for a child process of the server: this package importable first (the
    server may run from a checkout that is not installed)."""
    package_root = str(Path(__file__).resolve().parents[3])
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": package_root + (os.pathsep + path if path else "")}


def write_frame(stream: IO[bytes], message: tuple[Any, ...]) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> tuple[Any, ...] | None:
    """The next message; None at the end of the stream (the peer is gone)."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        return None
    message = pickle.loads(data)
    return message if isinstance(message, tuple) else None


def _found(finding: Any) -> Found:
    return Found(
        finding.entry,
        finding.line,
        finding.column,
        finding.end_line,
        finding.end_column,
        finding.message,
        finding.rule,
        dict(finding.fields),
    )


class _Skipped(Exception):
    """The job's key was cancelled while it waited."""


class Worker:
    """Jobs run on the main thread (so that `_thread.interrupt_main` can stop one); a reader
    thread takes messages as they come, so a cancel reaches a running job."""

    def __init__(self, out: IO[bytes], budget: float = BUDGET_SECONDS) -> None:
        self.out = out
        self.budget = budget
        self.jobs: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
        self.lock = threading.Lock()
        self.running: tuple[int, str] | None = None  # (job, key)
        self.why = ""
        self.cancelled: set[str] = set()  # keys whose queued jobs are dropped
        self.checkers: dict[str, tuple[tuple[str | None, str | None], IncrementalChecker]] = {}
        self.quick: queue.Queue[tuple[Any, ...] | None] = queue.Queue()  # context jobs
        self.writing = threading.Lock()  # both threads answer

    def send(self, reply: tuple[Any, ...]) -> None:
        with self.writing:
            write_frame(self.out, reply)

    def read(self, stream: IO[bytes]) -> None:
        while (message := read_frame(stream)) is not None:
            if message[0] == "cancel":
                self.cancel(message[1], "cancelled")
                self.jobs.put(message)
            elif message[0] == "context":
                self.quick.put(message)
            else:
                with self.lock:
                    self.cancelled.discard(message[2])
                self.jobs.put(message)
        # The server is gone: stop what runs, then end.
        with self.lock:
            if self.running is not None:
                self.why = "the server exited"
                _thread.interrupt_main()
        self.jobs.put(None)
        self.quick.put(None)

    def serve_quick(self) -> None:
        """The context jobs, apart from the analyses (never interrupted: they are short)."""
        from jaxerr_ls.analysis.call_shape import call_table

        while (message := self.quick.get()) is not None:
            _, job, _, _, source = message
            try:
                reply: tuple[Any, ...] = ("done", job, call_table(source))
            except Exception as exc:  # noqa: BLE001 - reported to the server, which logs it
                reply = ("failed", job, f"{type(exc).__name__}: {exc}")
            try:
                self.send(reply)
            except (BrokenPipeError, OSError, ValueError):
                return  # the server is gone

    def cancel(self, key: str, why: str) -> None:
        with self.lock:
            self.cancelled.add(key)
            if self.running is not None and self.running[1] == key:
                self.why = why
                _thread.interrupt_main()

    def _over_budget(self, job: int, key: str) -> None:
        with self.lock:
            if self.running == (job, key):
                self.why = f"over the {self.budget:g} s budget"
                _thread.interrupt_main()

    def serve(self) -> None:
        while (message := self.jobs.get()) is not None:
            if message[0] == "cancel":
                self.checkers.pop(message[1], None)
                continue
            kind, job, key, rules, payload = message
            import jaxerr_ls.rules.incremental  # noqa: F401 - once, before the job's budget starts

            timer = threading.Timer(self.budget, self._over_budget, (job, key))
            timer.daemon = True
            reply: tuple[Any, ...]
            try:
                try:  # an interrupt is only sent while `running` names this job: inside here
                    with self.lock:
                        if key in self.cancelled:
                            raise _Skipped
                        self.running = (job, key)
                    timer.start()
                    result = self.analyse(kind, key, rules, payload)
                finally:
                    with self.lock:
                        self.running = None
                    timer.cancel()
                reply = ("done", job, result)
            except _Skipped:
                reply = ("stopped", job, "cancelled")
            except KeyboardInterrupt:
                self.checkers.pop(key, None)  # interrupted mid-update: start afresh
                reply = ("stopped", job, self.why or "interrupted")
            except Exception as exc:  # noqa: BLE001 - reported to the server, which logs it
                self.checkers.pop(key, None)
                reply = ("failed", job, f"{type(exc).__name__}: {exc}")
            self.send(reply)

    def analyse(
        self, kind: str, key: str, rules: tuple[str | None, str | None], payload: Any
    ) -> dict[str, list[Found]]:
        from jaxerr_ls.rules import check_cells, rules_for

        release, interpreter = rules

        if kind == "cells":
            found: dict[str, list[Found]] = {uri: [] for uri, _ in payload}
            for uri, finding in check_cells(payload, rules_for(release, interpreter)):
                found[uri].append(_found(finding))
            return found
        kept = self.checkers.get(key)
        if kept is None or kept[0] != rules:
            from jaxerr_ls.rules.incremental import IncrementalChecker

            checker = IncrementalChecker(rules_for(release, interpreter))
            kept = self.checkers[key] = (rules, checker)
        return {key: [_found(f) for f in kept[1].check(payload)]}


def main(argv: list[str] | None = None) -> int:
    """`--rules`: import the rules at once (predictions are on), else with the first analysis."""
    args = sys.argv[1:] if argv is None else argv
    with contextlib.suppress(OSError):
        os.nice(NICENESS)  # the editor's requests first
    # Stopping a job raises KeyboardInterrupt in it (`_thread.interrupt_main`), which does nothing
    # when SIGINT is ignored, as it is for a job started in the background by a shell.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        budget = float(os.environ.get("JAXERR_LS_ANALYSIS_BUDGET") or BUDGET_SECONDS)
    except ValueError:
        budget = BUDGET_SECONDS
    worker = Worker(sys.stdout.buffer, budget)
    reader = threading.Thread(target=worker.read, args=(sys.stdin.buffer,), daemon=True)
    reader.start()
    threading.Thread(target=worker.serve_quick, name="context", daemon=True).start()
    if "--rules" in args:
        # Imported before the first analysis, while the editor opens the file.
        import jaxerr_ls.rules.incremental  # noqa: F401
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        worker.serve()
    return 0


if __name__ == "__main__":
    # Run from the package's module, not as `__main__`: the server unpickles what it sends.
    from jaxerr_ls.shells.lsp import worker as _module

    raise SystemExit(_module.main())
