"""Hovers in context (issue 19), through a real client: the hover of an API shows first what the
call risks on its line — a traceback's diagnostic, what the call's shape says — then the API's
own errors, with the count."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from jaxerr_ls.catalog import Catalog
from jaxerr_ls.shells.lsp.context import CHEAP_LINES

from .conftest import open_doc, root, run_python
from .test_diagnostics import clear, explain, wait_diagnostics
from .test_worker import METHOD

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIELD = Path(__file__).parents[1] / "field" / "programs"


async def hover_text(client: LanguageClient, uri: str, line: int, character: int) -> str:
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, character))
    )
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    return result.contents.value


def at_risk(text: str) -> list[str]:
    """The ids the hover says are at risk here, and checks the first full entry is the first."""
    blocks = text.split("\n\n---\n\n")
    if len(blocks) < 3 or not blocks[1].startswith("**At risk here**"):
        return []
    ids = blocks[1].split("`")[1::2]
    assert f"`{ids[0]}`" in blocks[2]  # shown in full right after
    return ids


async def test_a_jitted_method_shows_the_method_error_first(
    client: LanguageClient, catalog: Catalog
) -> None:
    uri = open_doc(client, root(client) / "method.py", METHOD)
    text = await hover_text(client, uri, 4, 6)  # on `jit` of `@jit`
    assert at_risk(text) == ["jit-method-self"]
    own = catalog.for_api("jax.jit")
    errors = sum(1 for e in own if not e.warns and not e.logs)  # warnings, logs apart
    assert f"{errors} catalogued errors" in text
    # The same function not in a class: the API's own order, nothing said to be at risk.
    plain = METHOD.replace("class A1:\n    @jit\n    def f(self, x):", "@jit\ndef f(y, x):")
    uri = open_doc(client, root(client) / "plain.py", plain)
    assert "At risk here" not in await hover_text(client, uri, 3, 2)


@pytest.mark.jax
async def test_the_raised_error_leads_the_hover_on_the_line_to_change(
    client: LanguageClient, catalog: Catalog
) -> None:
    """Field program jax#2663-style `grad(square)` kept in a name, called on the next line: after
    its real traceback, the hover on `grad` (the line the fix changes) leads with the error."""
    source = (FIELD / "02-grad-square-int" / "program.py").read_text(encoding="utf-8")
    program = root(client) / "grad_square.py"
    uri = open_doc(client, program, source)
    done = run_python(program, program.parent)
    assert done.returncode != 0, done.stdout
    await clear(client)
    explained = await explain(client, done.stderr, program.parent)
    assert explained[-1]["entry"]["id"] == "grad-integer-input"
    await wait_diagnostics(client, uri)
    line = source.splitlines().index("dfn = grad(square)")
    text = await hover_text(client, uri, line, 7)
    own = [e.id for e in catalog.for_api("jax.grad")]
    assert own.index("grad-integer-input") >= 3  # not among the first three before issue 19
    assert at_risk(text)[0] == "grad-integer-input"
    await clear(client)


async def test_a_large_file_hovers_at_once_then_in_context_once_its_table_is_read(
    client: LanguageClient, catalog: Catalog
) -> None:
    """A file over the lines read on the hover (issue 20): its call table is the worker's. A hover
    sent as the file opens (the worker starting, the analysis to come) shows the API's errors at
    once; once the table is in, the same hover puts the call's risk first. After an edit that
    moves the call, the hover on its new line finds it too (a table is never used for another
    text)."""
    filler = "".join(f"value_{n} = {n}\n" for n in range(CHEAP_LINES + 50))
    source = METHOD + filler
    uri = open_doc(client, root(client) / "large_method.py", source)
    errors = sum(1 for e in catalog.for_api("jax.jit") if not (e.warns or e.logs))  # apart
    count = f"{errors} catalogued errors"
    assert count in await hover_text(client, uri, 4, 6)
    assert await at_risk_soon(client, uri, 4, 6) == ["jit-method-self"]
    moved = "# a comment\n# and another\n" + source
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(moved)],
        )
    )
    assert count in await hover_text(client, uri, 6, 6)
    assert await at_risk_soon(client, uri, 6, 6) == ["jit-method-self"]
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri))
    )


async def at_risk_soon(
    client: LanguageClient, uri: str, line: int, character: int, deadline: float = 60.0
) -> list[str]:
    """What the hover says is at risk, asked again until it says something or `deadline` s."""
    loop = asyncio.get_running_loop()
    until = loop.time() + deadline
    while True:
        found = at_risk(await hover_text(client, uri, line, character))
        if found or loop.time() > until:
            return found
        await asyncio.sleep(0.05)  # between asks, not a wait for the table
