"""JAX's log line for a backend plugin that fails to initialize, made for real: a `jax_plugins`
package whose `initialize()` raises, found by the installed JAX when it starts (CPU)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text

pytestmark = pytest.mark.jax

PLUGIN = """
def initialize():
    raise RuntimeError("libcudart.so.12: cannot open shared object file")
"""


def test_a_plugin_that_fails_to_initialize(tmp_path: Path, matcher: Matcher) -> None:
    package = tmp_path / "jax_plugins" / "xla_broken"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(PLUGIN, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", "import jax; print(jax.devices())"],
        capture_output=True,
        text=True,
        timeout=300,
        env={"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Jax plugin configuration error" in done.stderr, done.stderr[-2000:]
    # The whole log: the exception logged after the line is the cause, and is explained.
    [cause] = explain_text(done.stderr, matcher)
    assert cause.match is not None and cause.match.entry.id == "cuda-library-not-found"
    # The log line alone, as users often paste it: the plugin entry says what to check.
    line = next(x for x in done.stderr.splitlines() if "Jax plugin configuration error" in x)
    [alone] = explain_text(line, matcher)
    assert alone.match is not None, line
    assert alone.match.entry.id == "jax-plugin-initialization-failed"
    assert alone.match.fields["plugin"] == "jax_plugins.xla_broken"
