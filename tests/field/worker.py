"""One JAX interpreter that runs many programs in turn and keeps what each printed.

Like `tests/fixes/jax_worker.py`, but `run(path)` also returns the program's standard output, so
that a fixed program's output can be compared with the thread's fixed program's. Each program
runs as `__main__` in its own folder (some read files beside them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

WORKER = r"""
import contextlib, io, json, os, runpy, sys, traceback
import jax
for line in sys.stdin:
    path = line.rstrip("\n")
    out = io.StringIO()
    here = os.getcwd()
    try:
        os.chdir(os.path.dirname(path))
        with contextlib.redirect_stdout(out):
            runpy.run_path(path, run_name="__main__")
        result = {"status": 0, "stderr": ""}
    except SystemExit as exc:
        result = {"status": 0 if exc.code in (None, 0) else 1, "stderr": ""}
    except BaseException as exc:
        result = {"status": 1, "stderr": "".join(traceback.format_exception(exc))}
    finally:
        os.chdir(here)
    result["stdout"] = out.getvalue()
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
"""


@dataclass(frozen=True)
class Run:
    status: int
    stdout: str
    stderr: str


class FieldWorker:
    def __init__(self) -> None:
        env = {**os.environ, "JAX_PLATFORMS": "cpu"}
        self._child = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )

    def run(self, path: Path) -> Run:
        child = self._child
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(f"{path.resolve()}\n")
        child.stdin.flush()
        line = child.stdout.readline()
        assert line, "the JAX worker died"
        result = json.loads(line)
        return Run(int(result["status"]), str(result["stdout"]), str(result["stderr"]))

    def close(self) -> None:
        if self._child.stdin is not None:
            self._child.stdin.close()
        self._child.wait(timeout=60)

    def __enter__(self) -> FieldWorker:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
