"""A warning JAX printed, pasted in the editor, is shown as a warning on the user's line (an
exception's traceback is an error): the real stderr of a program run under the installed JAX."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_warnings_real import run_file

from .conftest import current_diagnostics, open_doc, root
from .test_paste import explain

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.jax]

PROGRAM = """import jax.numpy as jnp

x = jnp.zeros(3, dtype=jnp.float64)  # x64 is off: JAX warns, pointing at this line
"""


async def test_a_pasted_warning_is_a_warning_on_the_users_line(client: LanguageClient) -> None:
    folder = root(client) / "warned"
    folder.mkdir(exist_ok=True)
    path = folder / "zeros.py"
    uri = open_doc(client, path, PROGRAM)
    stderr = run_file(path)
    assert "UserWarning" in stderr, stderr[-2000:]
    [found] = await explain(client, stderr, folder)
    assert found["exception"] == "UserWarning"
    assert found["entry"]["id"] == "x64-dtype-truncated"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30.0
    while True:
        shown = [d for d in await current_diagnostics(client, uri) if d.source == "jaxerr"]
        if shown or loop.time() > deadline:
            break
        await asyncio.sleep(0.1)
    [diagnostic] = shown
    assert diagnostic.range.start.line == 2
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    assert diagnostic.code == found["entry"]["id"]
