"""`jaxerr-ls check`: linter-style lines, JSON, exit codes, directories recursed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxerr_ls.shells.cli.main import main

BUG = "import jax\n\n\n@jax.jit\ndef f(x, n):\n    for _ in range(n):\n        x = x + 1\n    return x\n"
CLEAN = "import jax\n\n\n@jax.jit\ndef f(x):\n    return x + 1\n"


def test_findings_as_lines_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bug.py"
    path.write_text(BUG)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    assert out[0].startswith(f"{path}:6:20: tracer-integer-conversion TracerIntegerConversionError")


def test_json_and_directories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "bug.py").write_text(BUG)
    (tmp_path / "pkg" / "clean.py").write_text(CLEAN)
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "vendored.py").write_text(BUG)  # hidden directories are skipped
    (tmp_path / "notes.txt").write_text(BUG)
    assert main(["check", "--json", str(tmp_path)]) == 1
    items = json.loads(capsys.readouterr().out)
    assert items == [
        {
            "path": str(tmp_path / "pkg" / "bug.py"),
            "line": 6,
            "column": 20,
            "entry": "tracer-integer-conversion",
            "message": items[0]["message"],
        }
    ]
    assert "`range(n)`" in items[0]["message"]


def test_clean_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "clean.py"
    path.write_text(CLEAN)
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out == ""
    assert main(["check", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == []


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("missing.py", None, "no such file or directory"),
        ("latin1.py", b"x = '\xe9'\n", "not UTF-8"),
        ("broken.py", b"def f(:\n", "syntax error at line 1"),
    ],
)
def test_unreadable_exit_2_and_the_rest_still_checked(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: bytes | None,
    problem: str,
) -> None:
    bad = tmp_path / name
    if content is not None:
        bad.write_bytes(content)
    good = tmp_path / "bug.py"
    good.write_text(BUG)
    assert main(["check", str(bad), str(good)]) == 2
    captured = capsys.readouterr()
    assert f"jaxerr-ls check: {bad}: {problem}" in captured.err
    assert "tracer-integer-conversion" in captured.out


def test_ignore_comment_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "ignored.py"
    path.write_text(BUG.replace("range(n):", "range(n):  # jaxerr: ignore"))
    assert main(["check", str(path)]) == 0
