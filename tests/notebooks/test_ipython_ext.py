"""`%load_ext jaxerr_ls` in a real Jupyter kernel (nbclient + ipykernel) and terminal IPython,
and `jaxerr_ls.install()` in plain Python, each raising real JAX errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.jax

ANSI = re.compile(r"\x1b\[[0-9;]*m")
ROOT = Path(__file__).resolve().parents[2]
ENTRY = "immutable-array-item-assignment"
TITLE = "In-place item assignment on a JAX array"
JAX_ERROR = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1.0"
PLAIN_ERROR = 'raise ValueError("nothing to do with JAX")'


def env() -> dict[str, str]:
    return {
        **os.environ,
        "JAX_PLATFORMS": "cpu",
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p
        ),
    }


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> list[list[dict[str, Any]]]:
    """The outputs of each cell, as a real kernel produced them."""
    cells = [
        "%load_ext jaxerr_ls",
        JAX_ERROR,  # 1: explained
        PLAIN_ERROR,  # 2: untouched
        "import jaxerr_ls.shells.ipython.live\njaxerr_ls.shells.ipython.live.match_for = lambda error: 1 / 0",
        JAX_ERROR,  # 4: the handler fails: one log line, the traceback as usual
        "%unload_ext jaxerr_ls",
        JAX_ERROR,  # 6: unloaded: untouched
    ]
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    where = tmp_path_factory.mktemp("kernel")
    saved = dict(os.environ)
    os.environ.update(env())  # the kernel inherits it: JAX on CPU, this checkout's jaxerr_ls
    try:
        NotebookClient(
            notebook,
            timeout=300,
            kernel_name="python3",
            allow_errors=True,
            resources={"metadata": {"path": str(where)}},
        ).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return [[dict(o) for o in cell.get("outputs", [])] for cell in notebook.cells]


def kinds(outputs: list[dict[str, Any]]) -> list[str]:
    return [o["output_type"] for o in outputs]


def test_kernel_shows_the_explanation_after_the_traceback(
    executed: list[list[dict[str, Any]]],
) -> None:
    outputs = executed[1]
    assert kinds(outputs) == ["error", "display_data"], outputs
    error, shown = outputs
    assert error["ename"] == "TypeError" and "JAX arrays are immutable" in error["evalue"]
    printed = ANSI.sub("", "\n".join(error["traceback"]))  # the usual traceback, whole
    assert "----> 3 x[0] = 1.0" in printed and printed.rstrip().endswith(".at.html")
    html = shown["data"]["text/html"]
    assert TITLE in html and f"[{ENTRY}]" in html
    assert "How to fix" in html and "<b>Before</b>" in html and "<b>After</b>" in html
    assert '<a href="https://docs.jax.dev/' in html
    assert ".at[r].add(1)" in html  # the catalog's fixed example
    text = shown["data"]["text/plain"]
    assert TITLE in text and ENTRY in text


def test_kernel_leaves_other_errors_alone(executed: list[list[dict[str, Any]]]) -> None:
    assert kinds(executed[2]) == ["error"]
    assert executed[2][0]["ename"] == "ValueError"


def test_a_failing_handler_is_one_log_line(executed: list[list[dict[str, Any]]]) -> None:
    outputs = executed[4]
    assert kinds(outputs)[0] == "error" and outputs[0]["ename"] == "TypeError"
    logged = [o["text"] for o in outputs if o["output_type"] == "stream"]
    assert len(logged) == 1 and logged[0].count("\n") == 1, outputs
    assert "jaxerr-ls: could not explain TypeError" in logged[0]
    assert "display_data" not in kinds(outputs)


def test_unload_restores(executed: list[list[dict[str, Any]]]) -> None:
    assert kinds(executed[6]) == ["error"]


def test_terminal_ipython_prints_text_after_the_traceback() -> None:
    script = f"%load_ext jaxerr_ls\n{JAX_ERROR}\n{PLAIN_ERROR}\nexit\n"
    done = subprocess.run(
        [sys.executable, "-m", "IPython", "--colors=nocolor", "--no-banner", "--simple-prompt"],
        input=script,
        capture_output=True,
        text=True,
        timeout=180,
        env=env(),
    )
    out = done.stdout
    traceback_at = out.index("TypeError: JAX arrays are immutable")
    explained_at = out.index("jaxerr-ls explains:")
    assert traceback_at < explained_at
    assert f"[{ENTRY}]" in out[explained_at:] and "How to fix" in out[explained_at:]
    assert "<div" not in out  # text, not HTML
    assert out.count("jaxerr-ls explains:") == 1  # the ValueError is not explained
    assert "ValueError: nothing to do with JAX" in out


def run_plain(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=env()
    )


def test_install_explains_after_the_traceback_on_stderr() -> None:
    done = run_plain(f"import jaxerr_ls\njaxerr_ls.install()\n{JAX_ERROR}")
    assert done.returncode == 1 and done.stdout == ""
    err = done.stderr
    assert err.startswith("Traceback (most recent call last):")
    assert err.index("TypeError: JAX arrays are immutable") < err.index("jaxerr-ls explains:")
    assert f"[{ENTRY}]" in err and "x = x.at[i].set(v)" in err


def test_install_leaves_other_errors_and_survives_its_own_failure() -> None:
    plain = run_plain(f"import jaxerr_ls\njaxerr_ls.install()\n{PLAIN_ERROR}")
    assert plain.returncode == 1 and "jaxerr-ls" not in plain.stderr
    assert plain.stderr.rstrip().endswith("ValueError: nothing to do with JAX")
    broken = run_plain(
        "import jaxerr_ls, jaxerr_ls.shells.ipython.live\njaxerr_ls.install()\n"
        f"jaxerr_ls.shells.ipython.live.match_for = lambda error: 1 / 0\n{JAX_ERROR}"
    )
    lines = broken.stderr.rstrip().splitlines()
    assert lines[-1].startswith("jaxerr-ls: could not explain TypeError")
    assert lines[-2].startswith("TypeError: JAX arrays are immutable")


def test_uninstall_restores_the_previous_hook() -> None:
    import jaxerr_ls

    before = sys.excepthook
    jaxerr_ls.install()
    jaxerr_ls.install()  # twice: still one hook, and uninstall goes back to the first
    assert sys.excepthook is not before
    jaxerr_ls.uninstall()
    assert sys.excepthook is before


def test_html_escapes_the_catalog_text() -> None:
    from jaxerr_ls.catalog import Entry
    from jaxerr_ls.render.html import render_entry_html

    entry = Entry(
        id="x",
        exception="E",
        message="m",
        title="<script>alert(1)</script> `a < b`",
        curated=True,
        solutions=("use `x & y`",),
    )
    html = render_entry_html(entry)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<code>a &lt; b</code>" in html and "<li>use <code>x &amp; y</code></li>" in html
