"""Tracebacks printed by older JAX releases, pasted in the forms users copy, become the same
diagnostic in the editor as the 0.10.2 traceback of the same program: the same entry on the
same line (real outputs from tests/corpus/out-<release>/, made by scripts/make_corpus.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import current_diagnostics, open_doc, root
from .test_paste import explain

pytestmark = pytest.mark.asyncio(loop_scope="session")

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
CASES = [
    ("0.4.26", "scan_carry_type", "plain"),
    ("0.4.26", "while_body_type", "pytest_long"),
    ("0.4.26", "jit_string_arg", "json_log"),
    ("0.4.26", "index_out_of_bounds", "vscode_json"),
    ("0.4.38", "cond_branch_types", "unfiltered"),
    ("0.6.2", "index_out_of_bounds", "ipython"),
]


async def error_diagnostic(client: LanguageClient, uri: str) -> types.Diagnostic:
    """The traceback's diagnostic (an error), waiting for it; predicted warnings are left out."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20.0
    while True:
        found = [
            d
            for d in await current_diagnostics(client, uri)
            if d.severity == types.DiagnosticSeverity.Error
        ]
        if found or loop.time() > deadline:
            assert len(found) == 1, found
            return found[0]
        await asyncio.sleep(0.1)


@pytest.mark.parametrize(("release", "program", "form"), CASES)
async def test_same_diagnostic_as_the_newest_release(
    client: LanguageClient, release: str, program: str, form: str
) -> None:
    folder = root(client) / f"old-{release}-{form}"
    folder.mkdir(exist_ok=True)
    path = folder / f"{program}.py"
    source = (CORPUS / "programs" / f"{program}.py").read_text(encoding="utf-8")
    uri = open_doc(client, path, source)
    expected_line = next(i for i, line in enumerate(source.splitlines()) if "# user-line" in line)

    newest = (CORPUS / "out" / f"{program}.{form}.txt").read_text(encoding="utf-8")
    [*_, want] = await explain(client, newest, folder)
    text = (CORPUS / f"out-{release}" / f"{program}.{form}.txt").read_text(encoding="utf-8")
    [*_, got] = await explain(client, text, folder)
    assert got["entry"]["id"] == want["entry"]["id"]
    assert got["location"] == want["location"] and got["location"]["line"] == expected_line + 1

    diagnostic = await error_diagnostic(client, uri)
    assert diagnostic.code == want["entry"]["id"] and diagnostic.range.start.line == expected_line
