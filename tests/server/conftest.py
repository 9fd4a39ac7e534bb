"""A real client (pytest-lsp) driving `python -m jaxerr_ls` over stdio, per editor profile.

One server per test module and profile (starting one costs about a second); tests keep apart by
file names and clear diagnostics they leave behind.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from jaxerr_ls.catalog import Catalog, load_catalog

SERVER = [sys.executable, "-m", "jaxerr_ls", "serve", "--stdio"]
PROFILES = ["visual-studio-code", "neovim"]
CONFIG = ClientServerConfig(server_command=SERVER)


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


async def initialize(client: LanguageClient, profile: str, root: Path) -> None:
    registrations: list[types.RegistrationParams] = []

    def register(params: types.RegistrationParams) -> None:
        registrations.append(params)

    client.feature(types.CLIENT_REGISTER_CAPABILITY)(register)
    client.registrations = registrations  # type: ignore[attr-defined]
    client.root = root  # type: ignore[attr-defined]
    client.profile = profile  # type: ignore[attr-defined]
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(profile),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        )
    )


@pytest_lsp.fixture(config=CONFIG, params=PROFILES, scope="module")
async def client(
    lsp_client: LanguageClient,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[None]:
    await initialize(lsp_client, request.param, tmp_path_factory.mktemp("ws"))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def neovim(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    await initialize(lsp_client, "neovim", tmp_path_factory.mktemp("nvim"))
    yield
    await lsp_client.shutdown_session()


def root(client: LanguageClient) -> Path:
    found: Path = client.root  # type: ignore[attr-defined]
    return found


def encoding(client: LanguageClient) -> str:
    assert client.capabilities is not None
    general = client.capabilities.general
    encodings = general.position_encodings if general else None
    return str(encodings[0]) if encodings else "utf-16"


def units(text: str, enc: str) -> int:
    """Length of `text` in the client's position units."""
    if enc == "utf-8":
        return len(text.encode())
    if enc == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def open_doc(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", version, text))
    )
    return uri


def run_python(program: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, str(program)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
