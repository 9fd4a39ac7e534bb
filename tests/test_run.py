"""`jaxerr-ls run -- CMD`: output passed through, status kept, traceback saved for the editor."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from jaxerr_ls.shells.cli.run import exit_status, traceback_text

RAISES = """
def inner():
    raise ValueError(
        "Eager shard_map cannot return a `jax.Ref`. Please wrap your shard_map in `jax.jit`."
    )

print("before", flush=True)
inner()
"""


def _run(root: Path, *command: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", "run", "--root", str(root), "--", *command],
        capture_output=True,
        timeout=60,
        cwd=root,
    )


def test_output_passes_through_byte_for_byte(tmp_path: Path) -> None:
    program = (
        "import sys, os\n"
        "os.write(1, bytes(range(256)))\n"
        "os.write(2, b'\\xff\\xfe not utf-8 \\r\\n' + bytes(range(200)))\n"
        "sys.exit(3)\n"
    )
    done = _run(tmp_path, sys.executable, "-c", program)
    assert done.returncode == 3
    assert done.stdout == bytes(range(256))
    assert done.stderr == b"\xff\xfe not utf-8 \r\n" + bytes(range(200))
    assert (tmp_path / ".jaxerr").is_dir()
    assert not (tmp_path / ".jaxerr" / "last-run.txt").exists()


def test_success_is_silent(tmp_path: Path) -> None:
    done = _run(tmp_path, sys.executable, "-c", "print('hi')")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"hi\n", b"")


def test_traceback_is_saved_and_explained(tmp_path: Path) -> None:
    script = tmp_path / "prog.py"
    script.write_text(RAISES)
    done = _run(tmp_path, sys.executable, str(script))
    assert done.returncode == 1
    assert done.stdout == b"before\n"
    saved = (tmp_path / ".jaxerr" / "last-run.txt").read_text()
    assert "Traceback (most recent call last)" in saved
    assert saved in done.stderr.decode()
    # The program's own stderr comes first, untouched; the explanation follows it.
    assert done.stderr.decode().startswith(saved)
    tail = done.stderr.decode()[len(saved) :]
    assert "jaxerr-ls" in tail and "prog.py" in tail
    # Fixed and run again: the saved traceback is stale and goes, so the editor clears it.
    script.write_text("print('fixed')\n")
    again = _run(tmp_path, sys.executable, str(script))
    assert again.returncode == 0 and again.stdout == b"fixed\n"
    assert not (tmp_path / ".jaxerr" / "last-run.txt").exists()


def test_signal_status_and_missing_command(tmp_path: Path) -> None:
    killed = _run(tmp_path, sys.executable, "-c", "import os, signal; os.kill(os.getpid(), 9)")
    assert killed.returncode == 128 + 9
    missing = _run(tmp_path, "no-such-command-jaxerr")
    assert missing.returncode == 127
    assert exit_status(-15) == 143 and exit_status(2) == 2


def test_traceback_text_needs_a_traceback() -> None:
    assert traceback_text(b"just an error line\n") is None
    text = b'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\nKeyError: 1\n'
    assert traceback_text(text) is not None
