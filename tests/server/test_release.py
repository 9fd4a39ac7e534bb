"""The user's JAX release: the server reads it from the interpreter's environment metadata (a real
`jax-<v>.dist-info/METADATA` layout, nothing run) and hovers show that release's wording."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import CONFIG, initialize, open_doc

pytestmark = pytest.mark.asyncio(loop_scope="session")
PROGRAM = "import jax\n\ndef f(x):\n    return jax.tree.map(lambda a, b: a + b, x, x)\n"


def fake_env(root: Path, version: str) -> Path:
    """A virtual environment's layout with only jax's metadata in it; returns its python."""
    site = root / "lib" / "python3.11" / "site-packages"
    info = site / f"jax-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: jax\nVersion: {version}\nSummary: x\n\nBody\n",
        encoding="utf-8",
    )
    (root / "bin").mkdir()
    python = root / "bin" / "python"
    python.write_text("#!/bin/sh\nexit 3\n", encoding="utf-8")  # never run
    return python


@pytest_lsp.fixture(config=CONFIG, scope="session")
async def old_jax_client(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    root = tmp_path_factory.mktemp("oldjax")
    python = fake_env(root / ".venv", "0.4.38")
    await initialize(
        lsp_client, "visual-studio-code", root, {"jaxerr": {"interpreter": str(python)}}
    )
    yield
    await lsp_client.shutdown_session()


async def test_hover_uses_the_users_release_wording(old_jax_client: LanguageClient) -> None:
    root: Path = old_jax_client.root  # type: ignore[attr-defined]
    uri = open_doc(old_jax_client, root / "collective.py", PROGRAM)
    result = await old_jax_client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(3, 20))
    )
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    value = result.contents.value
    # JAX 0.4.38 says `Dict key mismatch; ...`; 0.10.2 words a tree-structure mismatch otherwise.
    assert "In your JAX 0.4.38 the message reads: `Dict key mismatch; expected keys:" in value
    # the raise site, pinned to the newest catalogued release
    assert "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/tree_util.py#L" in value
