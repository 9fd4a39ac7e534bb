"""`jaxerr.explainTraceback` explains what users paste short of a traceback, as `explain --json`
does: the same objects, `frames: []` and `location: null` unless the text named a frame."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import open_doc, root, wait_diagnostics

pytestmark = pytest.mark.asyncio(loop_scope="session")

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


async def explain(client: LanguageClient, text: str, where: Path | None = None) -> list[dict]:
    argument: object = {"text": text, "root": str(where)} if where else [text]
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="jaxerr.explainTraceback",
            arguments=argument if isinstance(argument, list) else [argument],
        )
    )
    assert isinstance(result, list)
    return result


async def test_exception_line_and_message_alone(client: LanguageClient) -> None:
    line = (CORPUS / "out" / "tracer_bool.last_line.txt").read_text(encoding="utf-8")
    [found] = await explain(client, line)
    assert found["exception"] == "jax.errors.TracerBoolConversionError"
    assert found["entry"]["id"] == "tracer-bool-conversion"
    assert found["frames"] == [] and found["location"] is None and found["causes"] == []
    message = line.split(": ", 1)[1]
    [found] = await explain(client, message)
    assert found["exception"] == "" and found["entry"]["id"] == "tracer-bool-conversion"
    assert await explain(client, "Only 1D vectors are supported") == []  # two classes: unsure


async def test_json_log_record_gives_a_diagnostic(client: LanguageClient) -> None:
    """A traceback inside a JSON log record (escaped, no real line breaks) still points at the
    user's line in the workspace."""
    program = root(client) / "tracer_bool_paste.py"
    source = (CORPUS / "programs" / "tracer_bool.py").read_text(encoding="utf-8")
    uri = open_doc(client, program, source)
    record = json.loads((CORPUS / "out" / "tracer_bool.json_log.txt").read_text())
    record["message"] = record["message"].replace(
        "/tmp/jaxerr-corpus/proj/tracer_bool.py", str(program)
    )
    [found] = await explain(client, json.dumps(record), program.parent)
    assert found["entry"]["id"] == "tracer-bool-conversion"
    assert found["location"] == {"path": str(program), "line": 9, "in_workspace": True}
    [diagnostic] = await wait_diagnostics(client, uri)
    assert diagnostic.code == "tracer-bool-conversion" and diagnostic.range.start.line == 8
