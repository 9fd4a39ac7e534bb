"""A real client (pytest-lsp) driving `python -m jaxerr_ls` over stdio, per editor profile.

One server per profile for the whole session (starting one costs about a second); tests keep
apart by file names and clear the diagnostics they look at.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

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


@pytest.fixture(scope="session")
def jax_program(tmp_path_factory: pytest.TempPathFactory, catalog: Catalog) -> tuple[Path, str]:
    """The eager-shard-map Ref example, run under JAX: its path and its real traceback."""
    entry = catalog.get("eager-shard-map-ref")
    assert entry is not None and entry.example is not None
    program = tmp_path_factory.mktemp("jaxprog") / "prog.py"
    program.write_text(entry.example.before.lstrip(), encoding="utf-8")
    done = run_python(program, program.parent)
    assert done.returncode != 0 and "Eager shard_map cannot return" in done.stderr, done.stderr
    return program, done.stderr


async def initialize(
    client: LanguageClient, profile: str, root: Path, options: dict[str, Any] | None = None
) -> None:
    """Initialize `client` as the editor of `profile` on the workspace `root`, with the
    `initializationOptions` an editor would send (e.g. `{"jaxerr": {"siteUrl": ...}}`)."""
    registrations: list[types.RegistrationParams] = []

    def register(params: types.RegistrationParams) -> None:
        registrations.append(params)

    client.feature(types.CLIENT_REGISTER_CAPABILITY)(register)
    client.registrations = registrations  # type: ignore[attr-defined]
    client.root = root  # type: ignore[attr-defined]
    client.profile = profile  # type: ignore[attr-defined]
    capabilities = client_capabilities(profile)
    if profile == "visual-studio-code":
        # What vscode-languageclient 9 declares (the captured profile predates notebook sync).
        capabilities.notebook_document = types.NotebookDocumentClientCapabilities(
            synchronization=types.NotebookDocumentSyncClientCapabilities(
                dynamic_registration=True, execution_summary_support=True
            )
        )
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=options,
        )
    )
    client.server_capabilities = result.capabilities  # type: ignore[attr-defined]


@pytest_lsp.fixture(config=CONFIG, params=PROFILES, scope="session")
async def client(
    lsp_client: LanguageClient,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[None]:
    await initialize(lsp_client, request.param, tmp_path_factory.mktemp("ws"))
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


def pulls(client: LanguageClient) -> bool:
    assert client.capabilities is not None
    text = client.capabilities.text_document
    return text is not None and text.diagnostic is not None


async def current_diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """What the editor would show for `uri`: the last pushed diagnostics plus, for a client
    that pulls (Neovim keeps both in separate namespaces), the pulled ones."""
    shown = list(client.diagnostics.get(uri, []))
    if pulls(client):
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(types.TextDocumentIdentifier(uri))
        )
        assert isinstance(
            report, types.RelatedFullDocumentDiagnosticReport | types.FullDocumentDiagnosticReport
        )
        shown += report.items
    return shown


async def wait_diagnostics(
    client: LanguageClient, uri: str, count: int = 1, timeout: float = 20.0
) -> list[types.Diagnostic]:
    """Poll until `uri` shows `count` diagnostics (the server answers asynchronously)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await current_diagnostics(client, uri)
        if len(found) == count or loop.time() > deadline:
            return found
        await asyncio.sleep(0.1)


def to_code_points(line: str, character: int, enc: str) -> int:
    """A client column on `line` as a code-point index."""
    used = 0
    for index, char in enumerate(line):
        if used >= character:
            return index
        used += units(char, enc)
    return len(line)


def apply_edits(text: str, edits: Sequence[types.TextEdit], enc: str) -> str:
    """Apply LSP edits (client units, all relative to `text`) the way an editor would."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        return before + to_code_points(line, position.character, enc)

    spans = sorted(
        ((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text
