"""Web servers the browser tests start (code-server, JupyterLab): a free port, the process in
its own session so its children (extension hosts, kernels, language servers) go with it, and
readiness waited for by asking, never by sleeping a fixed time."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(
    cmd: list[str],
    *,
    cwd: Path,
    env: dict[str, str],
    log: Path,
    ready: Callable[[], object],
    what: str,
    timeout_s: float,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run `cmd` (output to `log`) until the block ends; yields once `ready()` stops raising
    OSError, and fails the test if the process dies or `timeout_s` passes first."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as logf:
        proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdout=logf,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                ready()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"{what} did not come up (rc={proc.poll()}); see {log}")
                time.sleep(0.2)
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=20)
        # whatever of the group outlived its leader (an extension host, a kernel) goes too
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=20)
