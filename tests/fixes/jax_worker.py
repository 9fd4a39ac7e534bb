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


class JaxWorker:
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

    def run(self, path: Path) -> tuple[int, str]:
        child = self._child
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(f"{path}\n")
        child.stdin.flush()
        line = child.stdout.readline()
        assert line, "the JAX worker died"
        result = json.loads(line)
        return int(result["status"]), str(result["stderr"])

    def close(self) -> None:
        if self._child.stdin is not None:
            self._child.stdin.close()
        self._child.wait(timeout=60)

    def __enter__(self) -> JaxWorker:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
