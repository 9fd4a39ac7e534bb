"""Predicted diagnostics in a real client: shown on open, cleared by the fix typed or applied,
silenced by `# jaxerr: ignore`, turned off by `jaxerr.predict`, never doubled with a traceback's."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import apply_edits, current_diagnostics, encoding, open_doc, root, wait_diagnostics
from .test_diagnostics import clear, explain, fake_traceback

pytestmark = pytest.mark.asyncio(loop_scope="session")

BRANCH = """import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    if x > 0:
        return x
    return 0.0 * x


print(relu(jnp.float32(1.0)))
"""


def change(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def predicted(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if isinstance(d.data, dict) and d.data.get("predicted")]


async def wait_predicted(
    client: LanguageClient, uri: str, count: int, timeout: float = 20.0
) -> list[types.Diagnostic]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = predicted(await current_diagnostics(client, uri))
        if len(found) == count or loop.time() > deadline:
            return found
        await asyncio.sleep(0.05)


async def test_open_shows_warning_and_typing_the_fix_clears_it(client: LanguageClient) -> None:
    uri = open_doc(client, root(client) / "predict_open.py", BRANCH)
    [warning] = await wait_predicted(client, uri, 1)
    assert warning.severity == types.DiagnosticSeverity.Warning
    assert warning.source == "jaxerr" and warning.code == "tracer-bool-conversion"
    assert warning.range.start.line == 6
    assert warning.data == {
        "entry": "tracer-bool-conversion",
        "fields": {"name": "x"},
        "predicted": True,
    }
    assert warning.message.startswith("TracerBoolConversionError: an `if` on `x > 0`")

    fixed = BRANCH.replace(
        "    if x > 0:\n        return x\n    return 0.0 * x\n",
        "    return jnp.where(x > 0, x, 0.0 * x)\n",
    )
    change(client, uri, fixed, 2)
    assert await wait_predicted(client, uri, 0) == []
    change(client, uri, BRANCH, 3)  # typing the bug back brings the warning back
    assert len(await wait_predicted(client, uri, 1)) == 1


async def test_ignore_comment(client: LanguageClient) -> None:
    text = BRANCH.replace("if x > 0:", "if x > 0:  # jaxerr: ignore[tracer-bool-conversion]")
    uri = open_doc(client, root(client) / "predict_ignore.py", text)
    change(client, uri, text + "\n", 2)  # a second computation: the first answer was not luck
    await asyncio.sleep(0.5)
    assert predicted(await current_diagnostics(client, uri)) == []
    change(client, uri, text.replace("ignore[tracer-bool-conversion]", "ignore[other]"), 3)
    assert len(await wait_predicted(client, uri, 1)) == 1


async def test_setting_turns_predictions_off_and_on(client: LanguageClient) -> None:
    uri = open_doc(client, root(client) / "predict_setting.py", BRANCH)
    assert len(await wait_predicted(client, uri, 1)) == 1
    off = {"jaxerr": {"predict": False}}
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=off))
    try:
        assert await wait_predicted(client, uri, 0) == []
        change(client, uri, BRANCH + "\n", 2)
        await asyncio.sleep(0.5)
        assert predicted(await current_diagnostics(client, uri)) == []
    finally:
        on = {"jaxerr": {"predict": True}}
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=on))
    assert len(await wait_predicted(client, uri, 1)) == 1


async def test_quick_fix_from_predicted_diagnostic(client: LanguageClient) -> None:
    uri = open_doc(client, root(client) / "predict_fix.py", BRANCH)
    [warning] = await wait_predicted(client, uri, 1)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            warning.range,
            types.CodeActionContext(diagnostics=[warning]),
        )
    )
    quick = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.kind == "quickfix"]
    titles = [a.title for a in quick]
    # The file passes an array (`jnp.float32(1.0)`) to `x`: static would fail to hash it, so
    # only the element-wise choice is offered.
    assert titles == ["Use jnp.where (element-wise choice)"], titles
    assert quick[0].is_preferred
    where = next(a for a in quick if "jnp.where" in a.title)
    assert where.edit is not None and where.edit.changes is not None
    fixed = apply_edits(BRANCH, where.edit.changes[uri], encoding(client))
    assert "return jnp.where(x > 0, x, 0.0 * x)" in fixed
    change(client, uri, fixed, 2)
    assert await wait_predicted(client, uri, 0) == []


async def test_not_doubled_with_a_traceback_diagnostic(client: LanguageClient) -> None:
    folder = root(client)
    program = folder / "predict_double.py"
    text = (
        "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import PartitionSpec as P\n\n"
        'mesh = jax.make_mesh((1,), ("x",))\n\n\n'
        "def body(x):\n    ref = jax.new_ref(x)\n    ref[...] += 1\n    return ref[...]\n\n\n"
        "f = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())\n"
        "print(f(jnp.arange(4.0)))\n"
    )
    uri = open_doc(client, program, text)
    [warning] = await wait_predicted(client, uri, 1)
    assert warning.code == "eager-shard-map-ref" and warning.range.start.line == 8
    await clear(client)
    traceback = fake_traceback(program, [(15, "<module>", "print(f(jnp.arange(4.0)))")])
    traceback = traceback.replace(
        "ValueError:",
        f'  File "{program}", line 9, in body\n    ref = jax.new_ref(x)\nValueError:',
    )
    await explain(client, traceback, folder)
    shown = await wait_diagnostics(client, uri, 1)
    assert len(shown) == 1 and not predicted(shown)  # the traceback's, not both
    await clear(client)
    assert len(await wait_predicted(client, uri, 1)) == 1


def _long_file(bug_at: int) -> str:
    """~2,000 lines of jitted functions, the `n`-th branching on its traced argument. The
    comment turns on the key-reuse check, which makes the server check the file whole (about a
    second per analysis): edits arrive while analyses run."""
    head = "import jax\nimport jax.numpy as jnp\n# jax_debug_key_reuse is not set here\n"
    blocks = []
    for n in range(330):
        body = "    if x > 0:\n        return x\n" if n == bug_at else "    y = jnp.sin(x)\n"
        blocks.append(f"\n\n@jax.jit\ndef step_{n}(x):\n{body}    return x * 2\n")
    return head + "".join(blocks)


async def test_edits_during_a_long_analysis_end_with_the_newest_texts_warning(
    client: LanguageClient,
) -> None:
    uri = open_doc(client, root(client) / "predict_long.py", _long_file(0))
    [first] = await wait_predicted(client, uri, 1, timeout=60)
    for version, bug_at in enumerate((50, 100, 150, 200, 250), start=2):
        change(client, uri, _long_file(bug_at), version)
        await asyncio.sleep(0.25)  # past the debounce: each edit lands while one is analysed
    final = _long_file(250).splitlines().index("def step_250(x):") + 1
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    shown = predicted(await current_diagnostics(client, uri))
    while [d.range.start.line for d in shown] != [final] and loop.time() < deadline:
        await asyncio.sleep(0.05)
        shown = predicted(await current_diagnostics(client, uri))
    assert first.range.start.line != final
    assert [(d.code, d.range.start.line) for d in shown] == [("tracer-bool-conversion", final)]
