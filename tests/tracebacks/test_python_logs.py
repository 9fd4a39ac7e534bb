"""What JAX and the libraries log, pasted as the log line Python printed: read past its header
(`ERROR:jax._src.debugging:`, absl's `E1205 ... debugging.py:101] `) and explained by the entry
of the logged message. The log lines are printed here by real programs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import explain_text
from jaxerr_ls.render.terminal import render_explanation

# A host callback that fails: JAX logs "jax.debug.callback failed" at ERROR before it raises.
PROGRAM = """
import jax
{setup}

def callback(x):
    raise ValueError("boom")

@jax.jit
def f(x):
    jax.debug.callback(callback, x)
    return x

f(1.0).block_until_ready()
"""
SETUPS = {
    "logging": "import logging\nlogging.basicConfig()",
    "absl": "from absl import logging\nlogging.use_absl_handler()",
}


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(load_catalog())


def first_log_line(tmp_path: Path, setup: str) -> str:
    program = tmp_path / "callback.py"
    program.write_text(PROGRAM.format(setup=SETUPS[setup]), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(program)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode != 0, "the callback's error should end the program"
    return next(line for line in done.stderr.splitlines() if "callback failed" in line)


@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_a_logged_line_is_explained_by_what_logs_it(
    setup: str, matcher: Matcher, tmp_path: Path
) -> None:
    line = first_log_line(tmp_path, setup)
    assert not line.startswith("jax.debug.callback failed"), "the header was printed"
    [found] = explain_text(line, matcher)
    assert found.match is not None
    entry = found.match.entry
    assert entry.logs and entry.message == "jax.debug.callback failed"
    assert entry.title == "ERROR log: jax.debug.callback failed"
    assert any(site.file == "jax/_src/debugging.py" for site in entry.raised_at)
    shown = render_explanation(found)
    assert shown[0].startswith("Python log line (no exception in the text)")
    assert any("Logged in JAX at jax/_src/debugging.py" in text for text in shown)


def test_a_logged_exception_text_is_read_past_the_header(matcher: Matcher) -> None:
    """Orbax's own ValueError text, logged by a user's handler (`ERROR:root:`; orbax#2473's
    paste): the message past the header names the error; the header is no part of it."""
    [found] = explain_text(
        "ERROR:root:Device cuda:0 was not found in jax.local_devices().", matcher
    )
    assert found.match is not None
    assert found.match.entry.library == "orbax"
    assert found.match.entry.message == "Device {device_str} was not found in jax.local_devices()."


def test_a_line_like_a_header_but_not_one_stays_what_it_is(matcher: Matcher) -> None:
    # pip's `ERROR: ...` (a space after the colon, no logger) is no log header.
    assert not explain_text("ERROR: Could not find a version that satisfies jax", matcher)


RELAY = """
import subprocess, sys
from absl import logging
logging.use_absl_handler()
logging.set_verbosity(logging.INFO)
done = subprocess.run([sys.executable, {child!r}], capture_output=True, text=True)
for line in done.stderr.splitlines():
    logging.info(line)
"""
CHILD = """
import jax.numpy as jnp

def step(x):
    return jnp.reshape(x, (3, 5))

step(jnp.ones(7))
"""


def test_a_traceback_relayed_line_by_line_through_absl(matcher: Matcher, tmp_path: Path) -> None:
    """AlphaFold's `run_docker.py` logs each line of the container's output with absl
    (`I1119 14:49:41.358900 1404... run_docker.py:258] Traceback ...`): the header on every line
    is a prefix, and the traceback under it is read as printed. Run here for real."""
    child = tmp_path / "child.py"
    child.write_text(CHILD, encoding="utf-8")
    relay = tmp_path / "relay.py"
    relay.write_text(RELAY.format(child=str(child)), encoding="utf-8")
    done = subprocess.run([sys.executable, str(relay)], capture_output=True, text=True, timeout=300)
    assert "relay.py:" in done.stderr and "] Traceback (most recent call last):" in done.stderr
    found = [e for e in explain_text(done.stderr, matcher) if e.match is not None]
    assert found, done.stderr[-2000:]
    assert found[-1].traceback.exception.endswith("TypeError")
    assert "cannot reshape array of shape (7,)" in found[-1].traceback.message
    assert any(frame.path.endswith("child.py") for frame in found[-1].traceback.frames)
