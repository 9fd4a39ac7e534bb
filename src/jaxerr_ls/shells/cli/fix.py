"""The effects behind `jaxerr-ls fix`: run the command for real, read and write files whole."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from jaxerr_ls.fixes.loop import DEFAULT_ROUNDS, Files, fix_until_runs
from jaxerr_ls.shells.cli.run import run_teeing

WHO = "jaxerr-ls fix"


def _read(path: Path) -> str | None:
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return None


def _write(path: Path, text: str) -> bool:
    """Replace the file in one step (a crash never leaves it half written), keeping its mode."""
    try:
        mode = path.stat().st_mode & 0o7777
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
                out.write(text)
            os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        print(f"{WHO}: cannot write {path}: {exc}", file=sys.stderr)
        return False
    return True


def fix_command(
    command: list[str],
    root: Path,
    *,
    unsafe: bool = False,
    dry_run: bool = False,
    max_rounds: int = DEFAULT_ROUNDS,
) -> int:
    """Run `command`, fixing what fails, at most `max_rounds` times; the command's last status."""
    from jaxerr_ls.catalog import Matcher, load_catalog

    catalog = load_catalog()

    def run() -> tuple[int, str]:
        status, stderr = run_teeing(command, WHO)
        return status, stderr.decode("utf-8", errors="replace")

    outcome = fix_until_runs(
        run,
        root.resolve(),
        Files(_read, _write),
        Matcher(catalog),
        catalog,
        sys.stdout,
        unsafe=unsafe,
        dry_run=dry_run,
        max_rounds=max_rounds,
    )
    rounds = len(outcome.edits)
    if outcome.status == 0:
        if rounds:
            print(f"{WHO}: the command runs after {rounds} fix(es)", file=sys.stderr)
    else:
        print(f"{WHO}: stopped after {rounds} fix(es): {outcome.stop}", file=sys.stderr)
    return outcome.status
