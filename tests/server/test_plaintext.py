"""A client whose hover prefers plain text gets plain text (no markdown markup)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from jaxerr_ls.catalog import Catalog

from .conftest import CONFIG, open_doc

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_lsp.fixture(config=CONFIG, scope="session")
async def plain_client(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    capabilities = client_capabilities("visual-studio-code")
    assert capabilities.text_document is not None and capabilities.text_document.hover is not None
    capabilities.text_document.hover.content_format = [types.MarkupKind.PlainText]
    root = tmp_path_factory.mktemp("plain")
    lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
    lsp_client.root = root  # type: ignore[attr-defined]
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities, root_uri=root.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


async def test_hover_in_plain_text(plain_client: LanguageClient, catalog: Catalog) -> None:
    text = "import jax\n\nf = jax.jit(lambda x: x)\n"
    root: Path = plain_client.root  # type: ignore[attr-defined]
    uri = open_doc(plain_client, root / "plain.py", text)
    result = await plain_client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(2, 9))
    )
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.PlainText
    value = result.contents.value
    assert "jax.jit" in value
    first = catalog.for_api("jax.jit")[0]
    assert first.title in value or first.message.split("{", 1)[0][:40] in value
    assert "**" not in value and "```" not in value and "](" not in value
