"""Shared pieces of the real-editor tests (Neovim headless, VS Code = code-server + Playwright).

The server under test is the repository's own: `<python> -m jaxerr_ls` with `src/` first on
PYTHONPATH, where <python> is the interpreter running pytest (the project's venv).
JAXERR_TEST_SERVER_PYTHON / JAXERR_TEST_SERVER_PYTHONPATH override both (debugging only).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROJECT = Path(__file__).resolve().parent / "project"
ARTIFACTS = REPO / "test-artifacts"

SERVER_PYTHON = os.environ.get("JAXERR_TEST_SERVER_PYTHON", sys.executable)
SERVER_PYTHONPATH = os.environ.get("JAXERR_TEST_SERVER_PYTHONPATH", str(REPO / "src"))

# demo.py: the user's line the traceback points at, and the line the fix rewrites (1-based)
ERROR_LINE = 14
ERROR_LINE_TEXT = "    ref = jax.new_ref(x)"
SHARD_MAP_LINE = 19
WRAPPED_LINE = "f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P()))"
JIT_LINE = 8  # "@jax.jit"
ERROR_MESSAGE = "Eager shard_map cannot return a `jax.Ref`"


def server_env(base: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (SERVER_PYTHONPATH, env.get("PYTHONPATH", "")) if p
    )
    env["JAX_PLATFORMS"] = "cpu"
    return env


@pytest.fixture(scope="session")
def server_ok() -> None:
    """Fails (not skips) the editor tests when the server itself cannot start."""
    try:
        r = subprocess.run(
            [SERVER_PYTHON, "-m", "jaxerr_ls", "--help"],
            env=server_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{SERVER_PYTHON} -m jaxerr_ls --help did not finish in 60 s")
    if r.returncode != 0:
        pytest.fail(
            f"{SERVER_PYTHON} -m jaxerr_ls --help failed ({r.returncode}):\n{r.stderr[-2000:]}"
        )


@pytest.fixture(scope="session")
def jit_error_texts(server_ok: None) -> list[str]:
    """Visible text fragments of the catalogued errors raised by jax.jit (from `catalog list --json`)."""
    r = subprocess.run(
        [SERVER_PYTHON, "-m", "jaxerr_ls", "catalog", "list", "--json"],
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    out = r.stdout.strip()
    try:
        entries = json.loads(out)
    except json.JSONDecodeError:
        entries = [json.loads(line) for line in out.splitlines() if line.strip()]
    texts = [visible_fragment(e["message"]) for e in entries if "jax.jit" in (e.get("apis") or [])]
    texts = [t for t in texts if len(t) >= 12]
    if not texts:
        pytest.fail(
            "the catalog lists no error raised by jax.jit, so a jax.jit hover has nothing to show"
        )
    return texts


def visible_fragment(template: str, limit: int = 40) -> str:
    """The longest literal part of a message template, as rendered markdown shows it."""
    parts = re.split(r"\{[^{}]*\}", template)
    best = max(parts, key=len)
    best = re.sub(r"[`*_]", "", best)
    best = " ".join(best.split())
    return best[:limit].strip()


def normalize(text: str) -> str:
    return " ".join(re.sub(r"[`*_]", "", text).split())


@pytest.fixture
def project(tmp_path: Path) -> Path:
    dest = tmp_path / "proj"
    shutil.copytree(PROJECT, dest)
    return dest


def expected_fixed_text(original: str) -> str:
    lines = original.split("\n")
    assert lines[SHARD_MAP_LINE - 1].startswith("f = jax.shard_map(")
    lines[SHARD_MAP_LINE - 1] = WRAPPED_LINE
    return "\n".join(lines)
