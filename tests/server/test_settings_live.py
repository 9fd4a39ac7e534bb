"""Settings changed while the server runs, in every shape clients send them, and requests the
client cancels while the server starts: hovers keep answering throughout.

`workspace/didChangeConfiguration` arrives with the `jaxerr` section (VS Code's
`synchronize.configurationSection`, Neovim's `settings`) or with `settings: null` (the pull
model: the server asks `workspace/configuration`). The client here answers that question with the
settings, with nothing usable, or never, as real clients may.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from .conftest import SERVER, initialize, open_doc
from .test_predict import BRANCH, wait_predicted

SITE_START = "https://start.example/jaxerr"
SITE_NEW = "https://new.example/jaxerr"
PROGRAM = "import jax.numpy as jnp\n\nx = jnp.arange(3)\nprint(jnp.sum(x))\n"
ARANGE = types.Position(2, 9)  # on "arange"
DEADLINE = 30.0  # seconds; reached only when the server has stopped answering


async def answer_configuration(
    client: LanguageClient, params: types.ConfigurationParams
) -> list[Any]:
    """workspace/configuration as `client.configuration_mode` says: the configuration set,
    null (Neovim without `jaxerr` settings), a value of the wrong kind, or no answer at all."""
    state: Any = client  # the attributes make_client adds
    state.configuration_asked += 1
    if state.configuration_mode == "answers-null":
        return [None for _ in params.items]
    if state.configuration_mode == "answers-garbage":
        return [42 for _ in params.items]
    if state.configuration_mode == "never-answers":
        await state.release.wait()  # set at teardown only
        return [None for _ in params.items]
    return [
        client.get_configuration(section=i.section, scope_uri=i.scope_uri) for i in params.items
    ]


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    features = {**DEFAULT_CLIENT_FEATURES, types.WORKSPACE_CONFIGURATION: answer_configuration}
    register_lsp_features(client, features)
    client.configuration_mode = "answers"  # type: ignore[attr-defined]
    client.configuration_asked = 0  # type: ignore[attr-defined]
    client.release = asyncio.Event()  # type: ignore[attr-defined]
    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=make_client)


@pytest_lsp.fixture(config=CONFIG)
async def client(
    lsp_client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[None]:
    """A fresh server per test (the start-up window matters), started with SITE_START."""
    lsp_client.configuration_mode = getattr(request, "param", "answers")  # type: ignore[attr-defined]
    await initialize(
        lsp_client, "visual-studio-code", tmp_path, {"jaxerr": {"siteUrl": SITE_START}}
    )
    yield
    lsp_client.release.set()  # type: ignore[attr-defined]
    await lsp_client.shutdown_session()


def asked(client: LanguageClient) -> int:
    count: int = client.configuration_asked  # type: ignore[attr-defined]
    return count


async def hover_text(client: LanguageClient, uri: str) -> str:
    """The hover on `arange`; fails when the server does not answer within DEADLINE."""
    params = types.HoverParams(types.TextDocumentIdentifier(uri), ARANGE)
    result = await asyncio.wait_for(client.text_document_hover_async(params), DEADLINE)
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    return result.contents.value


async def wait_site(client: LanguageClient, uri: str, site: str) -> str:
    """Hover until its "page" links point at `site` (the change is applied asynchronously)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while True:
        text = await hover_text(client, uri)
        if f"[page]({site}/errors/" in text or loop.time() > deadline:
            return text
        await asyncio.sleep(0.1)


async def wait_asked(client: LanguageClient, count: int) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while asked(client) < count:
        assert loop.time() < deadline, f"the server asked workspace/configuration {asked(client)}x"
        await asyncio.sleep(0.05)


def program(client: LanguageClient) -> str:
    root: Path = client.root  # type: ignore[attr-defined]
    return open_doc(client, root / "prog.py", PROGRAM)


def vscode_section(site: str) -> dict[str, Any]:
    """What VS Code's `synchronize.configurationSection: 'jaxerr'` sends: the whole section."""
    return {
        "jaxerr": {
            "interpreter": sys.executable,
            "serverArgs": [],
            "siteUrl": site,
            "captureTerminal": True,
            "predict": True,
            "trace": {"server": "off"},
        }
    }


async def test_a_request_cancelled_while_starting_leaves_hovers_answering(
    client: LanguageClient,
) -> None:
    """VS Code cancels a code action or hover when the document or cursor moves; one cancelled
    while the catalog was still loading used to cancel the catalog itself, and from then on no
    hover and no traceback was answered."""
    uri = program(client)
    where = types.TextDocumentIdentifier(uri)
    hover = client.protocol.send_request(
        types.TEXT_DOCUMENT_HOVER, types.HoverParams(where, ARANGE), msg_id=9001
    )
    action = client.protocol.send_request(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionParams(where, types.Range(ARANGE, ARANGE), types.CodeActionContext([])),
        msg_id=9002,
    )
    await asyncio.sleep(0.05)  # both handlers are waiting for the catalog now
    for msg_id in (9001, 9002):
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
    for future in (hover, action):
        # cancelled, or answered when the cancel came too late: either is fine
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.wrap_future(future), DEADLINE)
    assert "catalogued errors" in await hover_text(client, uri)


async def test_pushed_section_applies_at_once(client: LanguageClient) -> None:
    uri = program(client)
    assert f"[page]({SITE_START}/errors/" in await hover_text(client, uri)
    before = asked(client)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings=vscode_section(SITE_NEW))
    )
    assert f"[page]({SITE_NEW}/errors/" in await wait_site(client, uri, SITE_NEW)
    assert asked(client) == before  # pushed: nothing to ask


async def test_bare_notification_pulls_the_section(client: LanguageClient) -> None:
    uri = program(client)
    client.set_configuration({"siteUrl": SITE_NEW}, section="jaxerr")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert f"[page]({SITE_NEW}/errors/" in await wait_site(client, uri, SITE_NEW)


@pytest.mark.parametrize(
    "client", ["answers-null", "answers-garbage", "never-answers"], indirect=True
)
async def test_unanswered_question_keeps_settings_and_hovers(client: LanguageClient) -> None:
    uri = program(client)
    await wait_asked(client, 1)  # the question the server asks once initialized
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    await wait_asked(client, 2)
    text = await hover_text(client, uri)
    assert f"[page]({SITE_START}/errors/" in text
    # and a push still gets through while the question is pending
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings=vscode_section(SITE_NEW))
    )
    assert f"[page]({SITE_NEW}/errors/" in await wait_site(client, uri, SITE_NEW)


async def test_pulled_predict_setting_turns_predictions_off_and_on(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    uri = open_doc(client, root / "branch.py", BRANCH)
    assert len(await wait_predicted(client, uri, 1)) == 1
    client.set_configuration({"predict": False}, section="jaxerr")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert await wait_predicted(client, uri, 0) == []
    assert "catalogued errors" in await hover_text(client, program(client))
    client.set_configuration({"predict": True}, section="jaxerr")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert len(await wait_predicted(client, uri, 1)) == 1
