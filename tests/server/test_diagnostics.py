"""Tracebacks become diagnostics on the user's line; edits move or drop them; fixes run clean."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import (
    apply_edits,
    current_diagnostics,
    encoding,
    open_doc,
    root,
    run_python,
    units,
    wait_diagnostics,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

MESSAGE = "Eager shard_map cannot return a `jax.Ref`. Please wrap your shard_map in `jax.jit`."
FIXED_RUNS: dict[str, subprocess.CompletedProcess[str]] = {}  # fixed text -> its run, once


def fake_traceback(path: Path, frames: list[tuple[int, str, str]]) -> str:
    """A CPython traceback through `path` (no JAX needed): (line, function, source) per frame."""
    out = ["Traceback (most recent call last):"]
    for line, function, source in frames:
        out += [f'  File "{path}", line {line}, in {function}', f"    {source.strip()}"]
    out.append(f"ValueError: {MESSAGE}")
    return "\n".join(out) + "\n"


async def explain(client: LanguageClient, text: str, where: Path | None = None) -> list[dict]:
    argument: object = {"text": text, "root": str(where)} if where else text
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="jaxerr.explainTraceback", arguments=[argument])
    )
    assert isinstance(result, list)
    return result


async def clear(client: LanguageClient) -> None:
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="jaxerr.clearDiagnostics", arguments=[])
    )


@pytest.mark.jax
async def test_real_jax_traceback_diagnostic_and_fix(
    client: LanguageClient, jax_program: tuple[Path, str]
) -> None:
    program, stderr = jax_program
    text = program.read_text()
    uri = open_doc(client, program, text)
    await clear(client)
    explained = await explain(client, stderr, program.parent)
    assert [e["entry"]["id"] for e in explained] == ["eager-shard-map-ref"]
    assert explained[0]["location"] == {"path": str(program), "line": 9, "in_workspace": True}

    [diagnostic] = await wait_diagnostics(client, uri)
    line = text.splitlines()[8]
    start = line.index("ref = jax.new_ref(x)")
    enc = encoding(client)
    assert diagnostic.range == types.Range(
        types.Position(8, units(line[:start], enc)), types.Position(8, units(line, enc))
    )
    assert diagnostic.source == "jaxerr" and diagnostic.code == "eager-shard-map-ref"
    assert diagnostic.message.startswith(f"ValueError: {MESSAGE}")
    assert diagnostic.code_description is not None
    assert diagnostic.code_description.href.startswith("https://")
    assert diagnostic.data == {"entry": "eager-shard-map-ref", "fields": {}}
    related = diagnostic.related_information or []
    assert [r.location.range.start.line for r in related] == [14]  # print(f(jnp.arange(4.0)))

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            diagnostic.range,
            types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    assert actions
    quick = [a for a in actions if isinstance(a, types.CodeAction) and a.kind == "quickfix"]
    preferred = [a for a in quick if a.is_preferred]
    assert [a.title for a in preferred] == ["Wrap with jax.jit"]
    assert list(preferred[0].diagnostics or []) == [diagnostic]
    edit = preferred[0].edit
    assert edit is not None and edit.changes is not None
    fixed = apply_edits(text, edit.changes[uri], enc)
    assert "jax.jit(jax.shard_map(" in fixed
    if fixed not in FIXED_RUNS:  # both profiles must give the same text; JAX runs once
        after = program.parent / "fixed.py"
        after.write_text(fixed)
        FIXED_RUNS[fixed] = run_python(after, program.parent)
    done = FIXED_RUNS[fixed]
    assert done.returncode == 0, done.stderr


async def test_jaxerr_run_file_becomes_diagnostics_then_clear(client: LanguageClient) -> None:
    if client.profile == "neovim":  # type: ignore[attr-defined]
        # `jaxerr-ls run` itself does not depend on the editor (and costs seconds: it loads the
        # catalog to explain); .jaxerr files -> pulled diagnostics is test_non_utf8_traceback_file.
        pytest.skip("covered with the VS Code profile")
    folder = root(client)
    program = folder / "runme.py"
    source = f"def main():\n    raise ValueError({MESSAGE!r})\n\n\nmain()\n"
    uri = open_doc(client, program, source)
    await clear(client)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "jaxerr_ls",
            "run",
            "--root",
            str(folder),
            "--",
            sys.executable,
            str(program),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and (folder / ".jaxerr" / "last-run.txt").is_file()
    [diagnostic] = await wait_diagnostics(client, uri)
    assert diagnostic.range.start.line == 1 and diagnostic.code == "eager-shard-map-ref"
    assert [r.location.range.start.line for r in diagnostic.related_information or []] == [4]
    await clear(client)
    assert await wait_diagnostics(client, uri, count=0) == []


async def test_edits_move_and_drop_the_diagnostic(client: LanguageClient) -> None:
    path = root(client) / "moving.py"
    source = "import jax\n\n\ndef body(x):\n    ref = jax.new_ref(x)\n    return ref\n"
    uri = open_doc(client, path, source)
    await clear(client)
    await explain(client, fake_traceback(path, [(5, "body", "ref = jax.new_ref(x)")]))
    [first] = await wait_diagnostics(client, uri)
    assert first.range.start.line == 4

    def change(version: int, rng: types.Range, text: str) -> None:
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [types.TextDocumentContentChangePartial(range=rng, text=text)],
            )
        )

    top = types.Range(types.Position(0, 0), types.Position(0, 0))
    change(2, top, "# one\n# two\n")
    moved = await _line_becomes(client, uri, 6)
    assert moved.range.end.character - moved.range.start.character == len("ref = jax.new_ref(x)")
    # Typing on the line below keeps it; deleting its line drops it.
    change(3, types.Range(types.Position(7, 4), types.Position(7, 4)), "  ")
    assert (await _line_becomes(client, uri, 6)).range.start.line == 6
    change(4, types.Range(types.Position(6, 0), types.Position(7, 0)), "")
    assert await wait_diagnostics(client, uri, count=0) == []


async def _line_becomes(client: LanguageClient, uri: str, line: int) -> types.Diagnostic:
    for _ in range(100):
        found = await current_diagnostics(client, uri)
        if found and found[0].range.start.line == line:
            return found[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"diagnostic not on line {line}: {found}")


async def test_changed_line_text_drops_it(client: LanguageClient) -> None:
    path = root(client) / "edited.py"
    uri = open_doc(client, path, "import jax\nref = jax.new_ref(1)\n")
    await clear(client)
    await explain(client, fake_traceback(path, [(2, "<module>", "ref = jax.new_ref(1)")]))
    assert len(await wait_diagnostics(client, uri)) == 1
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(text="import jax\nref = 2\n")],
        )
    )
    assert await wait_diagnostics(client, uri, count=0) == []


async def test_emoji_before_the_span(client: LanguageClient) -> None:
    path = root(client) / "emoji.py"
    line = 's = "😀🎉"; ref = jax.new_ref(s)  # ü'
    uri = open_doc(client, path, f"import jax\n{line}\n")
    await clear(client)
    await explain(client, fake_traceback(path, [(2, "<module>", line)]))
    [diagnostic] = await wait_diagnostics(client, uri)
    enc = encoding(client)
    assert diagnostic.range.start == types.Position(1, 0)
    assert diagnostic.range.end == types.Position(1, units(line, enc))
    # The emoji cost 2 UTF-16 units and 4 UTF-8 bytes each: the end proves the conversion.
    assert diagnostic.range.end.character != len(line) or enc == "utf-32"


async def test_non_utf8_traceback_file(client: LanguageClient) -> None:
    folder = root(client)
    path = folder / "bytes.py"
    uri = open_doc(client, path, "import jax\nref = jax.new_ref(3)\n")
    await clear(client)
    (folder / ".jaxerr").mkdir(exist_ok=True)
    text = fake_traceback(path, [(2, "<module>", "ref = jax.new_ref(3)")])
    (folder / ".jaxerr" / "odd.txt").write_bytes(b"\xff\xfe garbage \x80\n" + text.encode())
    assert len(await wait_diagnostics(client, uri)) == 1
    (folder / ".jaxerr" / "odd.txt").unlink()
    assert await wait_diagnostics(client, uri, count=0) == []
