"""The server's side of the analysis worker (`worker.py`): starts it on first use, sends jobs,
hands the answers back to the event loop as futures, restarts it when it died.

Writes go through a thread of their own (a 4 MB file must not stall the event loop on a full
pipe); a reader thread resolves the futures with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from jaxerr_ls.shells.lsp.worker import Found, child_env, read_frame, write_frame

log = logging.getLogger(__name__)

Results = Mapping[str, Sequence[Found]]


class Stopped(Exception):
    """The worker stopped the job (cancelled, or over its time budget) or is gone."""


class Analyser:
    def __init__(self, rules_first: Callable[[], bool] = lambda: True) -> None:
        # Whether the worker imports the rules as it starts (predictions on), else with the
        # first analysis (a worker that only reads call tables for hovers never needs them).
        self._rules_first = rules_first
        self._process: subprocess.Popen[bytes] | None = None
        self._outbox: queue.Queue[tuple[Any, ...] | None] | None = None
        # job -> (its loop, its future, the process serving it)
        self._waiting: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], Any]] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _start(self) -> queue.Queue[tuple[Any, ...] | None]:
        if self._process is not None and self._process.poll() is None and self._outbox:
            return self._outbox
        rules = ["--rules"] if self._rules_first() else []
        process = subprocess.Popen(
            [sys.executable, "-m", "jaxerr_ls.shells.lsp.worker", *rules],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=child_env(),
        )
        outbox: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
        assert process.stdin is not None and process.stdout is not None
        threading.Thread(
            target=self._write, args=(process.stdin, outbox), name="jaxerr-worker-w", daemon=True
        ).start()
        threading.Thread(
            target=self._read, args=(process, process.stdout), name="jaxerr-worker-r", daemon=True
        ).start()
        self._process, self._outbox = process, outbox
        log.info("analysis worker started (pid %d)", process.pid)
        return outbox

    def submit(
        self,
        kind: str,
        key: str,
        release: str | None,
        payload: Any,
        interpreter: str | None = None,
    ) -> asyncio.Future[Any]:
        """Analyse a file's text (`kind` "file") or a notebook's cells ("cells") in the worker,
        or read a text's call table for hovers ("context")."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        with self._lock:
            outbox = self._start()
            job = next(self._ids)
            self._waiting[job] = (loop, future, self._process)
        outbox.put((kind, job, key, (release, interpreter), payload))
        return future

    def cancel(self, key: str) -> None:
        """Stop the key's running analysis and forget its state (its document closed)."""
        with self._lock:
            if self._outbox is not None and self._process is not None:
                self._outbox.put(("cancel", key))

    def close(self) -> None:
        with self._lock:
            process, outbox = self._process, self._outbox
            self._process = self._outbox = None
        if outbox is not None:
            outbox.put(None)
        if process is not None:
            process.terminate()

    @staticmethod
    def _write(stream: IO[bytes], outbox: queue.Queue[tuple[Any, ...] | None]) -> None:
        try:
            while (message := outbox.get()) is not None:
                write_frame(stream, message)
        except (BrokenPipeError, OSError, ValueError):
            pass  # the worker is gone: the reader fails what waits
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    def _read(self, process: subprocess.Popen[bytes], stream: IO[bytes]) -> None:
        while True:
            try:
                message = read_frame(stream)
            except Exception:  # noqa: BLE001 - a garbled answer: the worker is restarted
                log.exception("unreadable answer from the analysis worker")
                process.kill()
                message = None
            if message is None:
                break
            kind, job, value = message
            with self._lock:
                waiting = self._waiting.pop(job, None)
            if waiting is None:
                continue
            loop, future, _ = waiting
            if kind == "done":
                loop.call_soon_threadsafe(_settle, future, value, None)
            else:
                problem = Stopped(value) if kind == "stopped" else RuntimeError(value)
                loop.call_soon_threadsafe(_settle, future, None, problem)
        code = process.wait()
        with self._lock:
            if self._process is process:
                self._process = self._outbox = None
            # Jobs of this process only: a restarted worker's are still being served.
            gone = [job for job, waiting in self._waiting.items() if waiting[2] is process]
            lost = [self._waiting.pop(job) for job in gone]
        if gone:
            log.warning("analysis worker exited (%s) with %d jobs unanswered", code, len(gone))
        for loop, future, _ in lost:
            loop.call_soon_threadsafe(_settle, future, None, Stopped("the worker exited"))


def _settle(future: asyncio.Future[Any], value: Any, problem: BaseException | None) -> None:
    if future.done():
        return
    if problem is not None:
        future.set_exception(problem)
    else:
        future.set_result(value)
