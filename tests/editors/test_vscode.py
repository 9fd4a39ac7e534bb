"""Real VS Code (code-server 4.100.3 in Debian's chromium, driven by Playwright) with the
extension from editors/vscode, built and installed from its .vsix, talking to this repository's
jaxerr-ls.

What is checked is what a user sees: the hover on `jax.jit`, the squiggle on the user's own line
after running the file with "JAX Errors: Run Current File", the same after a traceback is printed
in the integrated terminal (shell-integration capture), and the file after the "Wrap with jax.jit"
quick fix. Screenshots: test-artifacts/vscode/.

Needs: code-server (scripts/setup-editors.sh puts it in .tools/code-server), /usr/bin/chromium,
the Python `playwright` package, and node/npm for the build. Skipped with the reason when one
of these is not installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .conftest import (
    ARTIFACTS,
    ERROR_LINE,
    ERROR_LINE_TEXT,
    ERROR_MESSAGE,
    PROJECT,
    REPO,
    SERVER_PYTHON,
    WRAPPED_LINE,
    expected_fixed_text,
    normalize,
    server_env,
)
from .screen import wait_text, word_center
from .serving import free_port, serving

pytestmark = pytest.mark.editor

EXT_DIR = REPO / "editors" / "vscode"
CAPTURED = "terminal capture: command exited with"
VSIX = EXT_DIR / "jaxerr.vsix"
SHOTS = ARTIFACTS / "vscode"
LINES = ".monaco-editor .view-line"  # the elements holding one code line each
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _code_server() -> str | None:
    for cand in (
        os.environ.get("JAXERR_CODE_SERVER"),
        str(REPO / ".tools" / "code-server" / "node_modules" / ".bin" / "code-server"),
    ):
        if cand and Path(cand).exists():
            return cand
    return shutil.which("code-server")


def _chromium() -> str | None:
    return next(
        (c for c in ("/usr/bin/chromium", shutil.which("chromium")) if c and Path(c).exists()), None
    )


CODE_SERVER = _code_server()
CHROMIUM = _chromium()
_missing = [
    name
    for name, found in (
        ("code-server", CODE_SERVER),
        ("chromium", CHROMIUM),
        ("npm", shutil.which("npm")),
    )
    if not found
]
if _missing:
    pytest.skip(
        f"{', '.join(_missing)} not installed (run: bash scripts/setup-editors.sh .venv)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Python playwright not installed (run scripts/setup-editors.sh)"
)


def _run(cmd: list[str], cwd: Path, timeout: float, env: dict[str, str] | None = None) -> None:
    try:
        r = subprocess.run(
            cmd,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(cmd)} did not finish within {timeout} s")
    if r.returncode != 0:
        pytest.fail(
            f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        )


@pytest.fixture(scope="module")
def vsix() -> Path:
    """The extension built and packaged (`npm run package`) unless the .vsix is newer than its sources."""
    if not (EXT_DIR / "node_modules").is_dir():
        _run(["npm", "ci", "--no-audit", "--no-fund"], EXT_DIR, 300)
    sources = [
        EXT_DIR / n
        for n in (
            "package.json",
            "package-lock.json",
            "esbuild.mjs",
            "tsconfig.json",
            "README.md",
            "CHANGELOG.md",
            "LICENSE",
            ".vscodeignore",
        )
    ]
    sources += list((EXT_DIR / "src").rglob("*.ts"))
    if not VSIX.exists() or any(
        p.stat().st_mtime > VSIX.stat().st_mtime for p in sources if p.exists()
    ):
        _run(["npm", "run", "package"], EXT_DIR, 300)
    assert VSIX.exists()
    return VSIX


SETTINGS = {
    "workbench.startupEditor": "none",
    "security.workspace.trust.enabled": False,
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "update.mode": "none",
    "telemetry.telemetryLevel": "off",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "editor.hover.delay": 200,
    "files.autoSave": "off",
    "terminal.integrated.enablePersistentSessions": False,
    "terminal.integrated.defaultProfile.linux": "bash",
    "terminal.integrated.shellIntegration.enabled": True,
    # code-server's extension host does not see a venv on PATH: name the interpreter
    "jaxerr.interpreter": SERVER_PYTHON,
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("vscode") / "proj"
    shutil.copytree(PROJECT, dest)
    return dest


@dataclass
class CodeServer:
    url: str
    dir: Path
    user: Path  # --user-data-dir: User/settings.json, logs/

    def extension_log(self) -> str:
        """The extension's output channel ("JAX Errors"), as VS Code writes it to disk."""
        logs = sorted(self.user.glob("logs/*/exthost*/jaxerr.jaxerr/JAX Errors.log"))
        return "\n".join(p.read_text() for p in logs)


@pytest.fixture(scope="module")
def code_server(
    tmp_path_factory: pytest.TempPathFactory, vsix: Path, workspace: Path, server_ok: None
) -> Iterator[CodeServer]:
    """code-server on a free port with a fresh profile and the .vsix installed."""
    d = tmp_path_factory.mktemp("code-server")
    port = free_port()
    cfg = d / "config.yaml"
    cfg.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n")
    user, exts = d / "user", d / "ext"
    (user / "User").mkdir(parents=True)
    (user / "User" / "settings.json").write_text(json.dumps(SETTINGS, indent=2))
    env = server_env()
    for k in ("CONFIG", "DATA", "CACHE", "STATE"):
        (d / "xdg" / k.lower()).mkdir(parents=True)
        env[f"XDG_{k}_HOME"] = str(d / "xdg" / k.lower())
    (d / "tmp").mkdir()
    env["TMPDIR"] = str(d / "tmp")
    # keep PATH/PYTHONPATH: no login-shell environment for the extension host
    env["VSCODE_CLI"] = "1"
    common = ["--config", str(cfg), "--user-data-dir", str(user), "--extensions-dir", str(exts)]
    _run([CODE_SERVER, *common, "--install-extension", str(vsix)], d, 120, env)
    installed = [p.name for p in exts.iterdir() if p.is_dir()]
    assert any(n.startswith("jaxerr.jaxerr-") for n in installed), installed
    cmd = [
        CODE_SERVER,
        *common,
        "--disable-telemetry",
        "--disable-update-check",
        "--disable-workspace-trust",
        "--disable-getting-started-override",
        str(workspace),
    ]

    def healthy() -> None:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()

    log = SHOTS / "code-server.log"
    with serving(cmd, cwd=d, env=env, log=log, ready=healthy, what="code-server", timeout_s=60):
        yield CodeServer(f"http://127.0.0.1:{port}/?folder={workspace}", d, user)


class Steps:
    """Names each step (a failure says which one) and keeps screenshots and timings."""

    def __init__(self, page: Any, name: str) -> None:
        self.page, self.name, self.t0, self.n = page, name, time.monotonic(), 0
        self.log: list[str] = []

    def __call__(self, what: str) -> None:
        self.log.append(f"[{time.monotonic() - self.t0:6.2f}s] {what}")

    def shot(self, label: str) -> None:
        self.n += 1
        self.page.screenshot(path=str(SHOTS / f"{self.name}-{self.n:02d}-{label}.png"))

    def __str__(self) -> str:
        return "\n".join(self.log)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def page(browser: Any, code_server: CodeServer) -> Iterator[Any]:
    """One VS Code window on the demo project (one extension host and server for the module)."""
    pg = browser.new_page(viewport={"width": 1280, "height": 720})
    pg.set_default_timeout(30_000)
    pg.goto(code_server.url)
    pg.wait_for_selector(".monaco-workbench", timeout=60_000)
    pg.wait_for_selector(".explorer-folders-view, .explorer-viewlet", timeout=60_000)
    try:
        yield pg
    finally:
        try:
            pg.screenshot(path=str(SHOTS / "last.png"))
        finally:
            pg.close()


def quick_open(page: Any, name: str) -> None:
    """Open a workspace file through Quick Open (Ctrl+P). Its file search may not list a file
    written a moment ago (nor under load, within one opening): close it and ask again."""
    for attempt in range(4):
        page.keyboard.press("Control+P")
        page.wait_for_selector(".quick-input-widget input")
        page.keyboard.type(name)
        row = page.locator(".quick-input-list .monaco-list-row", has_text=name).first
        try:
            row.wait_for(timeout=20_000)
            break
        except sync_api.TimeoutError:
            page.keyboard.press("Escape")
            if attempt == 3:
                raise
    page.keyboard.press("Enter")


def open_file(page: Any, name: str) -> None:
    quick_open(page, name)
    page.locator(".monaco-editor .view-lines", has_text="shard_map").wait_for()


def status_item(page: Any) -> Any:
    """The extension's status bar item ("JAX Errors" with the server state's icon)."""
    return page.locator(".statusbar-item", has_text="JAX Errors").first


def run_command(page: Any, title: str) -> None:
    page.keyboard.press("F1")
    page.wait_for_selector(".quick-input-widget input")
    page.keyboard.type(title)
    page.locator(".quick-input-list .monaco-list-row", has_text=title).first.wait_for()
    page.keyboard.press("Enter")


def editor_text(page: Any) -> str:
    return page.evaluate("""() => [...document.querySelectorAll('.monaco-editor .view-line')]
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
        .map(e => e.textContent.replace(/\\u00a0/g, ' ')).join('\\n')""")


def squiggled_lines(page: Any) -> list[tuple[int, str]]:
    """(line number, line text) of each line with an error squiggle, read from the screen."""
    return page.evaluate("""() => {
        const near = (sel, top) => [...document.querySelectorAll(sel)]
            .find(e => Math.abs(e.getBoundingClientRect().top - top) < 4);
        return [...document.querySelectorAll('.monaco-editor .squiggly-error')].map(sq => {
            const top = sq.getBoundingClientRect().top;
            const num = near('.monaco-editor .margin .line-numbers', top);
            const line = near('.monaco-editor .view-line', top);
            return [num ? parseInt(num.textContent) : -1,
                    line ? line.textContent.replace(/\\u00a0/g, ' ') : ''];
        });
    }""")


def wait_squiggle(page: Any, timeout_s: float) -> list[tuple[int, str]]:
    """The squiggled lines once a squiggle shows and each has its line drawn beside it (the
    margin and the line can follow the squiggle by a frame)."""
    page.locator(".monaco-editor .squiggly-error").first.wait_for(timeout=timeout_s * 1000)
    deadline = time.monotonic() + 10
    while True:
        lines = [(int(n), str(text)) for n, text in squiggled_lines(page)]
        if all(n > 0 and text for n, text in lines) or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def apply_cell_quick_fix(page: Any, box: dict[str, float], title: str, step: Steps) -> None:
    """Put the cursor on the squiggle at `box` in a notebook cell, open Ctrl+. and apply the
    action titled `title` (the menu must offer it)."""

    def click() -> None:
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    click()
    page.keyboard.press("Escape")
    menu = page.locator(".action-widget")
    for _ in range(3):  # the first Ctrl+. can land before the cell editor has focus
        page.keyboard.press("Control+.")
        try:
            menu.locator(".monaco-list-row", has_text=title).first.wait_for(timeout=20_000)
            break
        except sync_api.TimeoutError:
            page.keyboard.press("Escape")
            click()
    items = [normalize(t) for t in menu.locator(".monaco-list-row").all_inner_texts()]
    step(f"quick fixes: {items}")
    step.shot("quick-fix-menu")
    assert any(title in item for item in items), items
    for _ in range(len(items) + 1):
        focused = menu.locator(".monaco-list-row.focused")
        if focused.count() and title in focused.first.inner_text():
            break
        page.keyboard.press("ArrowDown")
    else:
        pytest.fail(f"could not select {title!r} in {items}")
    page.keyboard.press("Enter")


def test_hover_on_jax_jit_lists_catalogued_errors(page: Any, jit_error_texts: list[str]) -> None:
    step = Steps(page, "hover")
    open_file(page, "demo.py")
    step("demo.py open")
    # wait for the server: the status bar item says running
    page.locator(".statusbar-item", has_text="JAX Errors").first.wait_for()
    status_item(page).locator("[class*='codicon-check']").first.wait_for(timeout=60_000)
    step("server running")
    x, y = word_center(page, LINES, "@jax.jit", "jit")
    shown = ""
    wanted = [normalize(t) for t in jit_error_texts]
    for _ in range(3):  # the first hover can race the server's start-up
        page.mouse.move(5, 5)
        page.mouse.move(x, y)
        hover = page.locator(".monaco-hover:not(.hidden)").filter(has_text=re.compile(r"\S"))
        try:
            hover.first.wait_for(timeout=20_000)
            shown = wait_text(hover.first, lambda text: any(t in text for t in wanted), 20)
            if any(t in shown for t in wanted):
                break
        except sync_api.TimeoutError:
            pass
    step(f"hover text: {shown[:300]}")
    step.shot("jit")
    assert any(normalize(t) in shown for t in jit_error_texts), (
        f"hover on jax.jit shows none of {jit_error_texts!r}\n{step}"
    )


# The README's picture: written by the test below to test-artifacts/vscode/, and into docs/img/
# when JAXERR_UPDATE_DOCS_IMAGES=1 (then commit it), so a test run never dirties the checkout.
README_PICTURE = "vscode-hover-squiggle.png"


def test_readme_picture_hover_and_predicted_squiggle(page: Any) -> None:
    """What the README shows: demo.py with the predicted warning's squiggle on the user's line
    and the hover there (the warning, then the errors `jax.new_ref` can raise)."""
    page.mouse.move(5, 5)
    page.keyboard.press("Escape")
    open_file(page, "demo.py")
    status_item(page).locator("[class*='codicon-check']").first.wait_for(timeout=60_000)
    page.locator(".monaco-editor .squiggly-warning").first.wait_for(timeout=60_000)
    x, y = word_center(page, LINES, "ref = jax.new_ref", "new_ref")
    hover = page.locator(".monaco-hover:not(.hidden)").filter(has_text=ERROR_MESSAGE)
    shown = ""
    for _ in range(3):
        page.mouse.move(5, 5)
        page.mouse.move(x, y)
        try:
            hover.first.wait_for(timeout=20_000)
        except sync_api.TimeoutError:
            continue
        shown = wait_text(hover.first, lambda text: "catalogued errors" in text, 20)
        if "catalogued errors" in shown:
            break
    assert normalize(ERROR_MESSAGE) in shown and "catalogued errors" in shown, shown[:500]
    editor = page.locator(".part.editor").first.bounding_box()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / README_PICTURE), clip=editor)
    if os.environ.get("JAXERR_UPDATE_DOCS_IMAGES") == "1":
        (REPO / "docs" / "img").mkdir(parents=True, exist_ok=True)
        shutil.copy(SHOTS / README_PICTURE, REPO / "docs" / "img" / README_PICTURE)


SITE = "https://site.example/jaxerr"


def hover_links(page: Any, x: float, y: float, done: Any, timeout_s: float) -> list[str]:
    """The link targets in the hover at (x, y) once `done(links)` holds, or at the deadline;
    the hover is opened afresh each time (its content is computed when it opens)."""
    deadline = time.monotonic() + timeout_s
    links: list[str] = []
    while time.monotonic() < deadline:
        page.mouse.move(5, 5)
        page.keyboard.press("Escape")
        page.mouse.move(x, y)
        hover = page.locator(".monaco-hover:not(.hidden)").filter(has_text="catalogued errors")
        try:
            hover.first.wait_for(timeout=15_000)
        except sync_api.TimeoutError:
            continue
        links = hover.first.evaluate(
            "h => [...h.querySelectorAll('a')].map(a => a.dataset.href || a.getAttribute('href'))"
        )
        if done(links):
            break
    return links


def write_workspace_settings(workspace: Path, settings: dict[str, Any]) -> None:
    """The project's .vscode/settings.json, as a user edits it (VS Code watches the file)."""
    (workspace / ".vscode").mkdir(exist_ok=True)
    (workspace / ".vscode" / "settings.json").write_text(json.dumps(settings, indent=2))


def test_settings_apply_while_running(page: Any, code_server: CodeServer, workspace: Path) -> None:
    """jaxerr.siteUrl and jaxerr.predict changed in the project's settings.json reach the running server: the
    hover links the site's pages, the predicted warning goes and comes back; no restart."""
    step = Steps(page, "settings")
    page.mouse.move(5, 5)
    page.keyboard.press("Escape")
    open_file(page, "demo.py")
    status_item(page).locator("[class*='codicon-check']").first.wait_for(timeout=60_000)
    warning = page.locator(".monaco-editor .squiggly-warning")
    warning.first.wait_for(timeout=60_000)  # demo.py line 14, predicted before it runs
    step("predicted warning shown")
    x, y = word_center(page, LINES, "@jax.jit", "jit")
    site_links = lambda links: any(link.startswith(f"{SITE}/errors/") for link in links)  # noqa: E731
    before = hover_links(page, x, y, lambda links: bool(links), 60)
    assert before and not site_links(before), before

    write_workspace_settings(workspace, {"jaxerr.siteUrl": SITE})
    links = hover_links(page, x, y, site_links, 60)
    step(f"siteUrl set; hover links: {links[:4]}")
    step.shot("site-links")
    assert site_links(links), f"the hover does not link {SITE}: {links}\n{step}"

    write_workspace_settings(workspace, {"jaxerr.siteUrl": SITE, "jaxerr.predict": False})
    page.mouse.move(5, 5)
    warning.first.wait_for(state="detached", timeout=60_000)
    step("predict off: warning gone")
    step.shot("predict-off")

    write_workspace_settings(workspace, {})
    warning.first.wait_for(timeout=60_000)
    links = hover_links(page, x, y, lambda found: bool(found) and not site_links(found), 60)
    step(f"settings back: warning back, hover links: {links[:4]}")
    assert links and not site_links(links), links

    log = code_server.extension_log()
    assert log.count("settings changed: {") >= 3, log
    assert log.count("jaxerr-ls is running") == 1, f"the server was restarted:\n{log}"
    print(step)


def test_run_file_squiggle_quick_fix_and_terminal_capture(
    page: Any, workspace: Path, code_server: CodeServer
) -> None:
    step = Steps(page, "traceback")
    original = (workspace / "demo.py").read_text()
    page.mouse.move(5, 5)
    page.keyboard.press("Escape")
    open_file(page, "demo.py")
    assert not squiggled_lines(page)

    # 1. Run Current File: a terminal runs `python -m jaxerr_ls run -- python demo.py` under JAX
    run_command(page, "JAX Errors: Run Current File")
    step("ran 'JAX Errors: Run Current File'")
    try:
        lines = wait_squiggle(page, 120)
    except sync_api.TimeoutError:
        step.shot("no-squiggle")
        pytest.fail(f"no squiggle after Run Current File\n{step}")
    step(f"squiggled: {lines}")
    step.shot("run-file-squiggle")
    assert lines == [(ERROR_LINE, ERROR_LINE_TEXT)], f"squiggle on the wrong line: {lines}"
    assert (workspace / ".jaxerr" / "last-run.txt").exists()
    # `jaxerr-ls run` reports through .jaxerr/last-run.txt; the terminal capture stays out of it
    assert CAPTURED not in code_server.extension_log()

    # the diagnostic's hover: the exception and message
    box = page.locator(".monaco-editor .squiggly-error").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    diag_hover = page.locator(".monaco-hover:not(.hidden)", has_text="ValueError")
    diag_hover.first.wait_for(timeout=30_000)
    hover_text = normalize(diag_hover.first.inner_text())
    step.shot("diagnostic-hover")
    assert normalize(ERROR_MESSAGE) in hover_text, hover_text

    # 2. the light bulb: Ctrl+. inside the squiggle, choose "Wrap with jax.jit" with the keyboard
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.press("Escape")
    page.keyboard.press("Control+.")
    menu = page.locator(".action-widget")
    menu.locator(".monaco-list-row", has_text="Wrap with jax.jit").first.wait_for(timeout=30_000)
    items = [normalize(t) for t in menu.locator(".monaco-list-row").all_inner_texts()]
    step(f"quick fixes: {items}")
    assert items.count("Wrap with jax.jit") == 1, items
    step.shot("quick-fix-menu")
    for _ in range(len(items) + 1):
        focused = menu.locator(".monaco-list-row.focused")
        if focused.count() and "Wrap with jax.jit" in focused.first.inner_text():
            break
        page.keyboard.press("ArrowDown")
    else:
        pytest.fail(f"could not select 'Wrap with jax.jit' in {items}")
    page.keyboard.press("Enter")
    page.locator(".monaco-editor .view-lines", has_text="jax.jit(jax.shard_map(").wait_for(
        timeout=30_000
    )
    page.keyboard.press("Control+S")
    fixed = expected_fixed_text(original)
    deadline = time.monotonic() + 30
    while (workspace / "demo.py").read_text() != fixed and time.monotonic() < deadline:
        time.sleep(0.2)
    step("fix applied and saved")
    step.shot("fixed")
    assert (workspace / "demo.py").read_text() == fixed, editor_text(page)
    assert WRAPPED_LINE in editor_text(page)

    # 3. Clear Diagnostics removes the squiggle
    run_command(page, "JAX Errors: Clear Diagnostics")
    page.locator(".monaco-editor .squiggly-error").first.wait_for(state="detached", timeout=30_000)
    step("cleared")

    # 4. Explain Traceback from Selection: the traceback selected in an editor; the message
    #    names the error and the place, and "Go to Line" jumps there (squiggled again)
    shutil.copy(workspace / ".jaxerr" / "last-run.txt", workspace / "tb.log")
    page.locator(".explorer-folders-view .monaco-list-row", has_text="tb.log").first.click()
    page.locator(".monaco-editor .view-lines", has_text="Traceback").wait_for()
    page.locator(".monaco-editor .view-lines", has_text="Traceback").click()
    page.keyboard.press("Control+A")
    run_command(page, "JAX Errors: Explain Traceback from Selection")
    toast = page.locator(".notification-toast", has_text="demo.py:14")
    toast.first.wait_for(timeout=30_000)
    toast_text = normalize(toast.first.inner_text())
    step(f"explain-selection message: {toast_text[:200]}")
    step.shot("explain-selection")
    assert "ValueError" in toast_text and normalize(ERROR_MESSAGE) in toast_text, toast_text
    toast.first.locator(".monaco-button", has_text="Go to Line").click()
    page.locator(".monaco-editor .view-lines", has_text="shard_map").wait_for()
    assert wait_squiggle(page, 30) == [(ERROR_LINE, ERROR_LINE_TEXT)]
    run_command(page, "JAX Errors: Clear Diagnostics")
    page.locator(".monaco-editor .squiggly-error").first.wait_for(state="detached", timeout=30_000)

    # 5. terminal capture: a failing command that prints the same traceback in the terminal
    run_command(page, "Terminal: Focus Terminal")
    page.locator(".terminal-wrapper.active, .terminal-wrapper").first.wait_for()
    # typing goes to the terminal once its input has the focus (the shell has been up since
    # Run Current File opened this terminal)
    page.wait_for_function(
        "() => document.activeElement?.classList.contains('xterm-helper-textarea')",
        timeout=60_000,
    )
    page.keyboard.type("cat tb.log 1>&2; false")
    page.keyboard.press("Enter")
    step("typed the failing command in the terminal")
    try:
        lines = wait_squiggle(page, 60)
    except sync_api.TimeoutError:
        step.shot("no-capture")
        pytest.fail(
            f"no squiggle from the terminal's traceback (shell-integration capture)\n{step}"
        )
    step(f"squiggled again: {lines}")
    step.shot("terminal-capture")
    assert lines == [(ERROR_LINE, ERROR_LINE_TEXT)]
    # and it came through the terminal capture (the .jaxerr file did not change)
    assert code_server.extension_log().count(CAPTURED) == 1, code_server.extension_log()
    print(step)


NOTEBOOK = REPO / "tests" / "notebooks" / "data" / "immutable_set.ipynb"
ENTRY_ID = "immutable-array-item-assignment"


def cell_squiggles(page: Any, kind: str = "error") -> list[tuple[str, str]]:
    """(text of the squiggled cell, text of the squiggled line) for each squiggle of `kind`
    ("error", "warning") shown in a notebook's cell editors, read from the screen."""
    return [
        tuple(x)
        for x in page.evaluate(
            """kind => [...document.querySelectorAll(
            '.notebook-editor .monaco-editor .squiggly-' + kind)].map(sq => {
            const editor = sq.closest('.monaco-editor');
            const lines = [...editor.querySelectorAll('.view-line')]
                .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
            const top = sq.getBoundingClientRect().top;
            const line = lines.find(e => Math.abs(e.getBoundingClientRect().top - top) < 4);
            const text = e => e.textContent.replace(/\\u00a0/g, ' ');
            return [lines.map(text).join('\\n'), line ? text(line) : ''];
        })""",
            kind,
        )
    ]


def wait_cell_squiggles(
    page: Any, done: Any, kind: str = "error", timeout_s: float = 30
) -> list[tuple[str, str]]:
    """`cell_squiggles` once `done(squiggles)` holds, or at the deadline: a cell's squiggles and
    lines are drawn over several frames after the first one appears."""
    deadline = time.monotonic() + timeout_s
    while True:
        squiggles = cell_squiggles(page, kind)
        if done(squiggles) or time.monotonic() > deadline:
            return squiggles
        time.sleep(0.1)


def test_notebook_saved_error_output_squiggle_hover_and_quick_fix(
    page: Any, workspace: Path
) -> None:
    """A notebook whose saved output is a real JAX error (executed by a kernel, see
    scripts/make_notebooks.py), opened with VS Code's built-in ipynb support (no Jupyter
    extension, no kernel): the failing line of the right cell is squiggled, its hover explains
    the error, and the quick fix rewrites the cell."""
    step = Steps(page, "notebook")
    target = workspace / "nb_set.ipynb"
    shutil.copy(NOTEBOOK, target)
    page.mouse.move(5, 5)
    page.keyboard.press("Escape")
    quick_open(page, "nb_set.ipynb")
    page.locator(".notebook-editor .view-lines", has_text="x[0] = 1.0").first.wait_for(
        timeout=60_000
    )
    step("notebook open")
    try:
        page.locator(".notebook-editor .squiggly-error").first.wait_for(timeout=120_000)
    except sync_api.TimeoutError:
        step.shot("no-squiggle")
        pytest.fail(f"no squiggle in the notebook from its saved error output\n{step}")
    expected = [("x = jnp.zeros(3)\nx[0] = 1.0\nx", "x[0] = 1.0")]
    squiggles = wait_cell_squiggles(page, lambda seen: seen == expected)
    step(f"squiggled: {squiggles}")
    step.shot("squiggle")
    assert squiggles == expected, squiggles

    box = page.locator(".notebook-editor .squiggly-error").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    hover = page.locator(".monaco-hover:not(.hidden)", has_text="TypeError")
    hover.first.wait_for(timeout=30_000)
    hover_text = wait_text(hover.first, lambda text: ENTRY_ID in text, 30)
    step(f"hover: {hover_text[:300]}")
    step.shot("hover")
    assert "JAX arrays are immutable" in hover_text, hover_text
    assert ENTRY_ID in hover_text, hover_text

    # outputs change (no kernel here to run a cell): cleared, the squiggle goes; the saved
    # notebook rewritten on disk with its error output, VS Code reloads it and it returns
    page.mouse.move(5, 5)
    page.keyboard.press("Escape")
    run_command(page, "Notebook: Clear All Outputs")
    page.locator(".notebook-editor .squiggly-error").first.wait_for(
        state="detached", timeout=60_000
    )
    step("outputs cleared: squiggle gone")
    page.keyboard.press("Control+S")
    deadline = time.monotonic() + 30
    while "outputs" in target.read_text() and '"error"' in target.read_text():
        assert time.monotonic() < deadline, "the cleared notebook was not saved"
        time.sleep(0.2)
    shutil.copy(NOTEBOOK, target)
    page.locator(".notebook-editor .squiggly-error").first.wait_for(timeout=60_000)
    back = wait_cell_squiggles(page, lambda seen: seen == expected)
    assert back == expected, back
    step("outputs back: squiggle back")
    box = page.locator(".notebook-editor .squiggly-error").first.bounding_box()

    apply_cell_quick_fix(page, box, "Use x.at[i].set(v)", step)
    page.locator(".notebook-editor .view-lines", has_text="x = x.at[0].set(1.0)").first.wait_for(
        timeout=30_000
    )
    page.keyboard.press("Control+S")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        cells = json.loads(target.read_text())["cells"]
        if "".join(cells[1]["source"]) == "x = jnp.zeros(3)\nx = x.at[0].set(1.0)\nx":
            break
        time.sleep(0.2)
    step("fix applied and saved")
    step.shot("fixed")
    saved_cells = json.loads(target.read_text())["cells"]
    assert "".join(saved_cells[1]["source"]) == "x = jnp.zeros(3)\nx = x.at[0].set(1.0)\nx"
    assert "".join(saved_cells[0]["source"]) == "import jax\nimport jax.numpy as jnp"
    # the fixed line is no longer the printed one: its squiggle goes
    page.locator(".notebook-editor .squiggly-error").first.wait_for(
        state="detached", timeout=30_000
    )
    page.keyboard.press("Control+W")
    print(step)


PREDICT_NOTEBOOK = REPO / "tests" / "notebooks" / "data" / "one_program.ipynb"
STEPS_CELL = "def steps(x, n):\n    for _ in range(n):\n        x = x + 1\n    return x"


def test_notebook_predicted_warning_across_cells_and_its_quick_fix(
    page: Any, workspace: Path
) -> None:
    """Before anything runs: a notebook (its saved outputs removed) whose second code cell
    defines `steps` and whose third jits it. The `range(n)` line of the defining cell gets a
    warning squiggle; "Mark 'n' as static" edits the jitting cell, and the warning goes."""
    step = Steps(page, "notebook-predict")
    data = json.loads(PREDICT_NOTEBOOK.read_text())
    for cell in data["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    target = workspace / "nb_predict.ipynb"
    target.write_text(json.dumps(data, indent=1))
    page.mouse.move(5, 5)
    page.keyboard.press("Escape")
    if page.locator(".part.panel").first.is_visible():  # an earlier test's terminal hides cells
        run_command(page, "Toggle Panel Visibility")
        page.locator(".part.panel").first.wait_for(state="hidden", timeout=10_000)
    quick_open(page, "nb_predict.ipynb")
    page.locator(".notebook-editor .view-lines", has_text="def steps(x, n):").first.wait_for(
        timeout=60_000
    )
    step("notebook open")
    warning = page.locator(".notebook-editor .squiggly-warning")
    try:
        warning.first.wait_for(timeout=120_000)
    except sync_api.TimeoutError:
        step.shot("no-warning")
        pytest.fail(f"no predicted warning in the notebook\n{step}")
    warned = (STEPS_CELL, "    for _ in range(n):")
    squiggles = wait_cell_squiggles(page, lambda seen: warned in seen, "warning")
    step(f"warnings: {squiggles}")
    step.shot("warning")
    assert warned in squiggles, squiggles
    assert cell_squiggles(page, "error") == []  # nothing ran: no traceback, no error

    box = warning.first.bounding_box()
    apply_cell_quick_fix(page, box, "Mark 'n' as static", step)
    fixed = 'fast = jax.jit(steps, static_argnames=("n",))'
    deadline = time.monotonic() + 60
    while warned in cell_squiggles(page, "warning"):
        assert time.monotonic() < deadline, f"the warning stayed after the fix\n{step}"
        time.sleep(0.2)
    step("warning gone")
    page.keyboard.press("Control+S")  # the jitting cell may be scrolled out: read the saved file
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        cells = json.loads(target.read_text())["cells"]
        if "".join(cells[3]["source"]).startswith(fixed):
            break
        time.sleep(0.2)
    step("fix applied in the jitting cell and saved")
    step.shot("fixed")
    cells = json.loads(target.read_text())["cells"]
    assert "".join(cells[3]["source"]).splitlines()[0] == fixed
    assert "".join(cells[2]["source"]) == STEPS_CELL  # the warned cell itself is unchanged
    page.keyboard.press("Control+W")
    print(step)


def test_missing_server_and_missing_python_are_explained(
    page: Any, workspace: Path, tmp_path: Path
) -> None:
    """Runs last: points jaxerr.interpreter (workspace settings) at a Python without jaxerr_ls,
    then at nothing; the user is told, with the way out."""
    step = Steps(page, "setup-errors")
    (workspace / ".vscode").mkdir(exist_ok=True)

    def set_interpreter(path: Path) -> None:
        settings = {"jaxerr.interpreter": str(path)}
        (workspace / ".vscode" / "settings.json").write_text(json.dumps(settings))

    bare = tmp_path / "bare-python"  # a real interpreter that cannot import jaxerr_ls
    base = getattr(sys, "_base_executable", None) or sys.executable
    bare.write_text(f'#!/bin/sh\nunset PYTHONPATH\nexec "{base}" -s "$@"\n')
    bare.chmod(0o755)
    set_interpreter(bare)
    toast = page.locator(".notification-toast", has_text="is not installed in")
    toast.first.wait_for(timeout=60_000)
    step.shot("not-installed")
    buttons = toast.first.locator(".monaco-button").all_inner_texts()
    assert "Install jaxerr-ls" in buttons, buttons
    assert str(bare) in toast.first.inner_text()

    missing = tmp_path / "no-such-python"
    set_interpreter(missing)
    page.locator(".notification-toast", has_text="was not found").first.wait_for(timeout=60_000)
    status_item(page).locator("[class*='codicon-error']").first.wait_for()
    step.shot("not-found")
    assert (
        str(missing)
        in page.locator(".notification-toast", has_text="was not found").first.inner_text()
    )
