"""The shape oracle: JAX's own shape rules, asked in batches.

The analysis (`evaluate.py`) never computes how a `jax.numpy`/`lax` call transforms shapes: it
asks an `Oracle` with queries (JSON-able dicts, see `worker.py`). `ProcessOracle` runs
`worker.py` with the user's interpreter, which evaluates only JAX's functions on
`ShapeDtypeStruct`s (`jax.eval_shape`), so a predicted message is the one the user's release
prints. Answers are cached for the oracle's lifetime (a query is a pure function of its text).
`NoOracle` answers nothing: with no JAX installed, the shape rules stay silent.

This module is the one part of the analysis that starts a process; the analysis itself takes
the oracle as an argument and stays a pure function of the text and the answers.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

Query = Mapping[str, Any]
Result = Mapping[str, Any]
WORKER = Path(__file__).with_name("worker.py")
_START_SECONDS = 60.0
_ANSWER_SECONDS = 30.0


def key_of(query: Query) -> str:
    return json.dumps(query, sort_keys=True, separators=(",", ":"))


class Oracle(Protocol):
    def answer(self, queries: Sequence[Query]) -> list[Result | None]:
        """One result per query; None when the oracle cannot say (no JAX, worker gone)."""
        ...


class NoOracle:
    """No JAX to ask: every answer unknown."""

    release: str | None = None

    def answer(self, queries: Sequence[Query]) -> list[Result | None]:
        return [None] * len(queries)


class ProcessOracle:
    """`worker.py` run by `interpreter`, started on first use, answers cached by query text."""

    def __init__(self, interpreter: str | None = None) -> None:
        self.interpreter = interpreter or sys.executable
        self.release: str | None = None
        self.cache: dict[str, Result] = {}
        self.asked = 0  # queries sent to the worker (the rest came from the cache)
        self._process: subprocess.Popen[str] | None = None
        self._failed = False
        self._lock = threading.Lock()

    def answer(self, queries: Sequence[Query]) -> list[Result | None]:
        keys = [key_of(q) for q in queries]
        with self._lock:
            missing: dict[str, Query] = {}
            for key, query in zip(keys, queries, strict=True):
                if key not in self.cache:
                    missing.setdefault(key, query)
            if missing:
                answers = self._ask(list(missing.values()))
                if answers is not None:
                    self.asked += len(missing)
                    for key, result in zip(missing, answers, strict=True):
                        self.cache[key] = result
            return [self.cache.get(k) for k in keys]

    def _ask(self, queries: list[Query]) -> list[Result] | None:
        process = self._start()
        if process is None or process.stdin is None or process.stdout is None:
            return None
        try:
            process.stdin.write(json.dumps(queries) + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
            answers = json.loads(line)
        except (OSError, ValueError) as exc:
            log.warning("shape oracle: %s", exc)
            self.close()
            self._failed = True
            return None
        if not isinstance(answers, list) or len(answers) != len(queries):
            return None
        return answers

    def _start(self) -> subprocess.Popen[str] | None:
        if self._process is not None and self._process.poll() is None:
            return self._process
        if self._failed:
            return None
        env = dict(os.environ, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3")
        env.pop("PYTHONPATH", None)  # the worker imports only the user's JAX
        try:
            process = subprocess.Popen(  # noqa: S603 - the user's own interpreter, our script
                [self.interpreter, "-I", str(WORKER)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=env,
            )
        except OSError as exc:
            log.info("shape oracle not started (%s): shape rules stay silent", exc)
            self._failed = True
            return None
        assert process.stdout is not None
        line = process.stdout.readline()
        try:
            ready = json.loads(line)
        except ValueError:
            ready = None
        if not isinstance(ready, dict) or "ready" not in ready:
            log.info("shape oracle: no JAX for %s: shape rules stay silent", self.interpreter)
            process.kill()
            process.wait()
            self._failed = True
            return None
        self.release = str(ready["ready"])
        self._process = process
        return process

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()


_ORACLES: dict[str, ProcessOracle] = {}


def oracle_for(interpreter: str | None = None) -> ProcessOracle:
    """The shared oracle of `interpreter` (None: the interpreter running this code)."""
    key = interpreter or sys.executable
    found = _ORACLES.get(key)
    if found is None:
        found = _ORACLES[key] = ProcessOracle(key)
    return found
