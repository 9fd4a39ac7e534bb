"""Real JupyterLab (4.6.6 with jupyterlab-lsp 5.3.0 / jupyter-lsp 2.3.1, in Debian's chromium
driven by Playwright) with this repository's jaxerr-ls found through its jupyter-lsp entry point.

Set up as a user would: no server configured by hand (jupyter-lsp finds jaxerr-ls through the
`jupyter_lsp_spec_v1` entry point), the user setting that ranks jaxerr-ls first for Python, and
`c.InteractiveShellApp.extensions = ["jaxerr_ls"]` in the IPython profile (what `%load_ext
jaxerr_ls` does, for every kernel). What is checked is what the user sees in a notebook: the hover
on `jax.jit` (Ctrl held, jupyterlab-lsp's default), the warning squiggle of a predicted error and
its message, and after running the cells the kernel's traceback followed by the explanation.
Screenshots: test-artifacts/jupyterlab/.

Needs jupyterlab, jupyterlab-lsp and ipykernel in the venv (scripts/setup-editors.sh),
/usr/bin/chromium and the Python `playwright` package; skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import secrets
import shutil
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS, SERVER_PYTHON, normalize, server_env
from .screen import wait_text, word_center
from .serving import free_port, serving

pytestmark = pytest.mark.editor

CHROMIUM = next(
    (c for c in ("/usr/bin/chromium", shutil.which("chromium")) if c and Path(c).exists()), None
)
_missing = [m for m in ("jupyterlab", "jupyter_lsp", "ipykernel") if find_spec(m) is None]
if CHROMIUM is None:
    _missing.append("chromium")
if _missing:
    pytest.skip(
        f"{', '.join(_missing)} not installed (run: bash scripts/setup-editors.sh .venv)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Python playwright not installed (run scripts/setup-editors.sh)"
)

SHOTS = ARTIFACTS / "jupyterlab"
LINES = ".jp-Notebook .cm-line"  # the elements holding one code line each
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
]
WAIT = 120_000  # ms: generous, the tests must pass with both cores busy

CELLS = [
    "import jax\nimport jax.numpy as jnp",
    "@jax.jit\ndef clip(x):\n    if x > 0:\n        return x\n    return -x",
    "clip(jnp.ones(()))",
]
# The user settings the README documents: jaxerr-ls first among the Python servers; and no
# "news" pop-up over the notebook.
USER_SETTINGS = {
    "@jupyter-lsp/jupyterlab-lsp/plugin.jupyterlab-settings": {
        "language_servers": {"jaxerr-ls": {"priority": 100}}
    },
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false"},
}
IPYTHON_CONFIG = 'c.InteractiveShellApp.extensions = ["jaxerr_ls"]\n'


def _notebook(cells: list[str]) -> dict[str, Any]:
    return {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": source,
            }
            for source in cells
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


@dataclass
class Lab:
    base: str
    token: str
    root: Path
    log: Path

    def url(self, path: str) -> str:
        return f"{self.base}{path}?token={self.token}"

    def lsp_status(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url("lsp/status"), timeout=10) as r:
            status: dict[str, Any] = json.load(r)
        return status


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """JupyterLab on loopback with a token, fresh config/data/settings/IPython folders."""
    d = tmp_path_factory.mktemp("jupyterlab")
    root = d / "root"
    root.mkdir()
    (root / "demo.ipynb").write_text(json.dumps(_notebook(CELLS), indent=1))
    env = server_env()
    for name, var in (
        ("config", "JUPYTER_CONFIG_DIR"),
        ("data", "JUPYTER_DATA_DIR"),
        ("runtime", "JUPYTER_RUNTIME_DIR"),
        ("settings", "JUPYTERLAB_SETTINGS_DIR"),
        ("workspaces", "JUPYTERLAB_WORKSPACES_DIR"),
        ("ipython", "IPYTHONDIR"),
    ):
        (d / name).mkdir()
        env[var] = str(d / name)
    for rel, settings in USER_SETTINGS.items():
        path = d / "settings" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    profile = d / "ipython" / "profile_default"
    profile.mkdir(parents=True)
    (profile / "ipython_config.py").write_text(IPYTHON_CONFIG)
    port, token = free_port(), secrets.token_hex(16)
    started = Lab(f"http://127.0.0.1:{port}/", token, root, SHOTS / "jupyterlab.log")
    cmd = [
        SERVER_PYTHON,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--allow-root",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
    ]
    with serving(
        cmd,
        cwd=d,
        env=env,
        log=started.log,
        ready=started.lsp_status,
        what="JupyterLab",
        timeout_s=WAIT / 1000,
    ):
        yield started


@pytest.fixture(scope="module")
def page(lab: Lab) -> Iterator[Any]:
    """The demo notebook open in JupyterLab (one kernel and one jaxerr-ls for the module)."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        pg = browser.new_page(viewport={"width": 1280, "height": 800})
        pg.set_default_timeout(WAIT)
        pg.goto(lab.url("lab/tree/demo.ipynb"))
        cell(pg, len(CELLS) - 1).wait_for()
        # jupyterlab-lsp connects once the kernel says the notebook's language
        pg.get_by_text("Fully initialized", exact=True).first.wait_for()
        try:
            yield pg
        finally:
            try:
                pg.screenshot(path=str(SHOTS / "last.png"))
            finally:
                browser.close()


def cell(page: Any, i: int) -> Any:
    return page.locator(".jp-Notebook .jp-Cell").nth(i)


def leave(page: Any) -> None:
    """Mouse away, Ctrl up, Escape: jupyterlab-lsp's hover keeps clicks until it closes."""
    page.keyboard.up("Control")
    page.mouse.move(5, 700)
    page.keyboard.press("Escape")


def test_jupyter_lsp_finds_jaxerr_ls_by_its_entry_point(lab: Lab) -> None:
    specs = lab.lsp_status()["specs"]
    assert "jaxerr-ls" in specs, sorted(specs)
    assert specs["jaxerr-ls"]["languages"] == ["python"]


def test_hover_on_jax_jit_lists_catalogued_errors(page: Any, jit_error_texts: list[str]) -> None:
    wanted = [normalize(t) for t in jit_error_texts]
    hover = page.locator(".lsp-hover")
    shown = ""
    for _ in range(3):  # the first hover can race the server's start-up
        leave(page)
        x, y = word_center(page, LINES, "@jax.jit", "jit")
        page.mouse.move(x, y)
        page.keyboard.down("Control")  # jupyterlab-lsp's hover key
        page.mouse.move(x + 1, y)
        try:
            hover.first.wait_for(timeout=20_000)
        except sync_api.TimeoutError:
            continue
        shown = wait_text(hover.first, lambda t: any(w in t for w in wanted), 30)
        if any(w in shown for w in wanted):
            break
    page.screenshot(path=str(SHOTS / "hover-jit.png"))
    leave(page)
    assert "catalogued errors (jaxerr)" in shown, shown[:500]
    assert any(w in shown for w in wanted), f"hover shows none of {wanted!r}: {shown[:500]}"


def test_predicted_error_squiggle_and_its_message(page: Any) -> None:
    leave(page)
    squiggle = cell(page, 1).locator(".cm-lintRange-warning")
    squiggle.first.wait_for()
    assert normalize(squiggle.first.inner_text()) == "x > 0"
    box = squiggle.first.bounding_box()
    tooltip = page.locator(".cm-tooltip-lint", has_text="TracerBoolConversionError")
    for _ in range(3):
        leave(page)
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        try:
            tooltip.first.wait_for(timeout=WAIT / 3)
            break
        except sync_api.TimeoutError:
            continue
    text = wait_text(tooltip.first, lambda t: "jaxerr" in t, 10)
    page.screenshot(path=str(SHOTS / "predicted-warning.png"))
    leave(page)
    # the warning's message and its source, as CodeMirror's lint tooltip shows them
    assert "an if on x > 0 needs a concrete True/False" in text and text.endswith("jaxerr"), text


def test_running_a_failing_cell_explains_the_error_after_its_traceback(page: Any) -> None:
    leave(page)
    cell(page, 0).locator(".jp-InputPrompt").click(force=True)
    page.keyboard.press("Escape")  # command mode: Shift+Enter runs the cell and moves on
    for _ in CELLS:
        page.keyboard.press("Shift+Enter")
    outputs = cell(page, 2).locator(".jp-OutputArea-output")
    outputs.filter(has_text="tracer-bool-conversion").first.wait_for()
    texts = [normalize(t) for t in outputs.all_inner_texts()]
    page.screenshot(path=str(SHOTS / "explained.png"), full_page=True)
    tb = next(i for i, t in enumerate(texts) if "TracerBoolConversionError" in t)
    explained = next(i for i, t in enumerate(texts) if "tracer-bool-conversion" in t)
    assert tb < explained, texts
    assert "How to fix" in texts[explained] and "jnp.where" in texts[explained], texts[explained]
