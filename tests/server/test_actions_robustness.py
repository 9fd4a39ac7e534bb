"""Source and refactor actions, handler errors, huge documents, watcher registration."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import apply_edits, encoding, open_doc, root, wait_diagnostics

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROGRAM = """import jax
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("x",))


def body(x):
    ref = jax.new_ref(x)
    return ref[...]


f = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())
"""


def traceback_for(path: Path) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 8, in body\n'
        "    ref = jax.new_ref(x)\n"
        "ValueError: Eager shard_map cannot return a `jax.Ref`. "
        "Please wrap your shard_map in `jax.jit`.\n"
    )


async def actions_at(
    client: LanguageClient,
    uri: str,
    rng: types.Range,
    diagnostics: list[types.Diagnostic],
    only: list[str] | None = None,
) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            rng,
            types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def test_fix_all_and_rewrite(client: LanguageClient) -> None:
    path = root(client) / "actions.py"
    uri = open_doc(client, path, PROGRAM)
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams("jaxerr.explainTraceback", [{"text": traceback_for(path)}])
    )
    [diagnostic] = await wait_diagnostics(client, uri)
    anywhere = types.Range(types.Position(0, 0), types.Position(0, 0))
    [fix_all] = await actions_at(client, uri, anywhere, [], only=["source.fixAll"])
    assert fix_all.kind == "source.fixAll.jaxerr" and fix_all.edit and fix_all.edit.changes
    fixed = apply_edits(PROGRAM, fix_all.edit.changes[uri], encoding(client))
    assert "f = jax.jit(jax.shard_map(body" in fixed
    # Quick fixes only when asked for quickfix; no source action unless asked for.
    quick = await actions_at(client, uri, diagnostic.range, [diagnostic], only=["quickfix"])
    assert quick and {a.kind for a in quick} == {"quickfix"}
    # At a bare cursor with no diagnostic, on code no rule flags: no lightbulb.
    cursor = types.Range(types.Position(11, 6), types.Position(11, 6))
    assert await actions_at(client, uri, cursor, []) == []
    # On a range the user selected: the same fix as a refactoring.
    selection = types.Range(types.Position(11, 4), types.Position(11, 17))
    rewrites = await actions_at(client, uri, selection, [])
    assert "Wrap with jax.jit" in [a.title for a in rewrites]
    assert {a.kind for a in rewrites} == {"refactor.rewrite"}


AT_RISK = """import jax
import jax.numpy as jnp


@jax.jit
def grid(n):
    return jnp.zeros((n, n))


print(grid(4))
"""


async def test_lightbulb_only_where_a_rule_flags(client: LanguageClient) -> None:
    """With predictions off nothing is published, yet the line at risk still offers its fix."""
    uri = open_doc(client, root(client) / "at_risk.py", AT_RISK)
    flagged = types.Range(types.Position(6, 8), types.Position(6, 8))
    rewrites = await actions_at(client, uri, flagged, [], only=["refactor"])
    assert [a.title for a in rewrites] == ["Mark 'n' as static (static_argnames)"]
    assert {a.kind for a in rewrites} == {"refactor.rewrite"}
    edit = rewrites[0].edit
    assert edit is not None and edit.changes is not None
    fixed = apply_edits(AT_RISK, edit.changes[uri], encoding(client))
    assert 'static_argnames=("n",)' in fixed
    for line in (0, 4, 9):  # the import, the decorator, the call: correct code
        cursor = types.Range(types.Position(line, 2), types.Position(line, 2))
        assert await actions_at(client, uri, cursor, [], only=["refactor"]) == []


async def test_handler_error_keeps_serving(client: LanguageClient) -> None:
    with pytest.raises(JsonRpcException):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams("jaxerr.explainTraceback", [42])
        )
    uri = open_doc(client, root(client) / "after_error.py", "import jax\njax.jit\n")
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(1, 5))
    )
    assert hover is not None


async def test_huge_document_hover(client: LanguageClient) -> None:
    filler = "x = [1, 2, 3]  # ü 😀\n" * 100_000  # ~2.5 MB
    uri = open_doc(client, root(client) / "huge.py", "import jax\n" + filler + "y = jax.vmap\n")
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(100_001, 9))
    )
    assert hover is not None and "jax.vmap" in str(hover.contents)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri))
    )


async def test_huge_file_code_action_answers_without_its_analysis(client: LanguageClient) -> None:
    """A file too big to analyse: a bare cursor's code action answers at once with nothing (no
    rule ran, none waited for), the hover still answers."""
    block = "\n\n@jax.jit\ndef step(x):\n    return jax.numpy.sin(x)\n"
    text = "import jax\n" + block * 6_000  # 30,000 lines, over predict.MAX_LINES
    uri = open_doc(client, root(client) / "huge_actions.py", text)
    last = text.count("\n") - 3  # the last `@jax.jit`
    cursor = types.Range(types.Position(last, 6), types.Position(last, 6))
    assert await actions_at(client, uri, cursor, []) == []
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(last, 6))
    )
    assert hover is not None and "jax.jit" in str(hover.contents)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri))
    )


async def test_watcher_registered_when_supported(client: LanguageClient) -> None:
    registrations = client.registrations  # type: ignore[attr-defined]
    assert client.capabilities is not None
    watched = (
        client.capabilities.workspace and client.capabilities.workspace.did_change_watched_files
    )
    if watched and watched.dynamic_registration:
        [params] = registrations
        [registration] = params.registrations
        assert registration.method == "workspace/didChangeWatchedFiles"
        assert registration.register_options["watchers"][0]["globPattern"] == "**/.jaxerr/*.txt"
    else:
        assert registrations == []
