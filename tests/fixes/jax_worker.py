"""One JAX interpreter that runs many small programs in turn (JAX is imported once).

`JaxWorker.run(path)` runs the file as `__main__` and returns what `python FILE` would end with:
(0, "") when it ran, else (1, the traceback as Python prints it for an uncaught exception).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

WORKER = r"""
import contextlib, io, json, runpy, sys, traceback
import jax
for line in sys.stdin:
    path = line.rstrip("\n")
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(path, run_name="__main__")
        result = {"status": 0, "stderr": ""}
    except SystemExit as exc:
        result = {"status": 0 if exc.code in (None, 0) else 1, "stderr": ""}
    except BaseException as exc:
        text = "".join(traceback.format_exception(exc))
        result = {"status": 1, "stderr": text}
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
"""


_Self = TypeVar("_Self", bound="WorkerProcess")


class WorkerProcess:
    """A child interpreter running `script`: one path in on stdin, one JSON line out."""

    def __init__(self, script: str) -> None:
        env = {**os.environ, "JAX_PLATFORMS": "cpu"}
        self._child = subprocess.Popen(
            [sys.executable, "-c", script],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )

    def ask(self, path: str) -> dict[str, Any]:
        child = self._child
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(f"{path}\n")
        child.stdin.flush()
        line = child.stdout.readline()
        assert line, "the JAX worker died"
        result: dict[str, Any] = json.loads(line)
        return result

    def close(self) -> None:
        if self._child.stdin is not None:
            self._child.stdin.close()
        self._child.wait(timeout=60)

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class JaxWorker(WorkerProcess):
    def __init__(self) -> None:
        super().__init__(WORKER)

    def run(self, path: Path) -> tuple[int, str]:
        result = self.ask(str(path))
        return int(result["status"]), str(result["stderr"])
