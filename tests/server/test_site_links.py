"""With `jaxerr.siteUrl` set, the editor's links go to the published site's page for the entry:
the diagnostic's codeDescription.href and a "page" link in the hover; unset, JAX's docs."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.conftest import CONFIG, initialize, open_doc, wait_diagnostics

SITE = "https://example.org/jaxerr"
CORPUS = Path(__file__).parents[1] / "corpus"
PROGRAM = "import jax.numpy as jnp\n\nx = jnp.arange(3)\nprint(jnp.sum(x))\n"


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    await initialize(
        lsp_client, "visual-studio-code", tmp_path, {"jaxerr": {"siteUrl": SITE + "/"}}
    )
    yield
    await lsp_client.shutdown_session()


async def explain_real_traceback(client: LanguageClient) -> list[types.Diagnostic]:
    """float_index.py as JAX ran it (its saved traceback), explained into the workspace."""
    root: Path = client.root  # type: ignore[attr-defined]
    program = root / "float_index.py"
    shutil.copy(CORPUS / "programs" / "float_index.py", program)
    uri = open_doc(client, program, program.read_text())
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="jaxerr.clearDiagnostics", arguments=[])
    )
    traceback = (CORPUS / "out" / "float_index.plain.txt").read_text()
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="jaxerr.explainTraceback", arguments=[{"text": traceback, "root": str(root)}]
        )
    )
    return await wait_diagnostics(client, uri)


async def test_diagnostic_links_the_site_page_then_docs_when_unset(client: LanguageClient) -> None:
    [diagnostic] = await explain_real_traceback(client)
    assert diagnostic.code == "float-index"
    assert diagnostic.code_description is not None
    assert diagnostic.code_description.href == f"{SITE}/errors/float-index.html"

    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"jaxerr": {"siteUrl": ""}})
    )
    [diagnostic] = await explain_real_traceback(client)
    assert diagnostic.code_description is not None
    # float-index has a page in JAX's docs: the default link.
    assert diagnostic.code_description.href.startswith("https://docs.jax.dev/")


async def test_hover_links_each_listed_entry_to_its_page(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    uri = open_doc(client, root / "prog.py", PROGRAM)
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(2, 9))
    )
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    assert f"[page]({SITE}/errors/" in result.contents.value


async def test_a_bad_site_url_is_refused_with_a_message(client: LanguageClient) -> None:
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"jaxerr": {"siteUrl": 42}})
    )
    await client.wait_for_notification(types.WINDOW_SHOW_MESSAGE)
    assert any("jaxerr.siteUrl" in m.message for m in client.messages)
    [diagnostic] = await explain_real_traceback(client)
    assert diagnostic.code_description is not None
    assert diagnostic.code_description.href == f"{SITE}/errors/float-index.html"
