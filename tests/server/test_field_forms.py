"""`jaxerr.explainTraceback` reads the forms of the field corpus as `explain --json` does: a VS
Code notebook error copy cut short, JAX's SimplifiedTraceback note alone, a chain cut in its
frames; and says how each entry was found (`identified_by`). Texts from tests/field/pastes."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

PASTES = Path(__file__).resolve().parent.parent / "field" / "pastes"


async def explain(client: LanguageClient, name: str) -> list[dict]:
    [path] = PASTES.glob(f"{name}-*.txt")
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="jaxerr.explainTraceback",
            arguments=[{"text": path.read_text(encoding="utf-8")}],
        )
    )
    assert isinstance(result, list)
    return result


async def test_vscode_copy_cut_short(client: LanguageClient) -> None:
    [found] = await explain(client, "193")
    assert (found["exception"], found["message"]) == ("ValueError", "std::bad_cast")
    assert found["frames"][0]["path"] == "Cell In[5]"


async def test_simplified_traceback_note_is_not_the_error(client: LanguageClient) -> None:
    found = await explain(client, "204")
    assert all("SimplifiedTraceback" not in f["exception"] for f in found)


async def test_chain_cut_in_its_frames_and_how_identified(client: LanguageClient) -> None:
    [found] = await explain(client, "075")
    assert found["exception"] == "TypeError"
    assert found["entry"]["id"] == "grad-tuple-output-without-has-aux"
    assert found["entry"]["identified_by"] == "message"
    # a 2022 wording of UnexpectedTracerError no catalogued wording matches: its class names it
    by_class = await explain(client, "156")
    assert {found["entry"]["identified_by"] for found in by_class} == {"class"}
    # a pytest summary cut the message short ("A funct..."): named by its beginning
    cut = await explain(client, "158")
    assert {(f["entry"]["id"], f["entry"]["identified_by"]) for f in cut} == {
        ("unexpected-tracer-leak", "message")
    }
    assert all(f["entry"]["score"] < 100 for f in cut)


async def test_runtime_errors_no_wording_matches_are_named_by_status(
    client: LanguageClient,
) -> None:
    # a notebook's XlaRuntimeError cut before its message (jax-windows-builder#34)
    [cut] = await explain(client, "478")
    assert cut["message"] == ""
    assert (cut["entry"]["id"], cut["entry"]["identified_by"]) == ("xla-runtime-error", "class")
    # jaxlib 0.1.5x's `RuntimeError: Invalid argument: Argument does not match host shape ...`
    # (jax#4131), a text no index holds (jax#5228's, once named so, is found by its words now)
    found = await explain(client, "461")
    assert (found[-1]["entry"]["id"], found[-1]["entry"]["identified_by"]) == (
        "xla-status-invalid-argument",
        "class",
    )


async def test_stop_29_forms_from_the_editor(client: LanguageClient) -> None:
    # pytest's short summary: the FAILED line is the message, its footer is not (equinox#1171)
    [summary] = await explain(client, "635")
    assert summary["message"].startswith("The spec of NamedSharding passed to")
    assert "====" not in summary["message"] and summary["entry"]["identified_by"] == "message"
    # a program's `ERROR: <text>` line, the class not printed (diffusers#2155)
    [logged] = await explain(client, "666")
    assert logged["entry"]["id"] == "lax-dtype-mismatch"
    # XLA's own extension built from source (openxla/xla#14433): the undefined-symbol entry
    [symbol] = await explain(client, "693")
    assert symbol["entry"]["id"] == "jaxlib-undefined-symbol"


async def test_stop_30_forms_from_the_editor(client: LanguageClient) -> None:
    # a reply quoting a later line of the leaked-tracer message (jax#5319)
    [quoted] = await explain(client, "775")
    assert quoted["entry"]["id"] == "unexpected-tracer-leak"
    assert not quoted["message"].startswith(">")
    # an exception's repr, hard-wrapped and cut (efppo#8)
    [repr_] = await explain(client, "786")
    assert repr_["exception"] == "ValueError" and repr_["entry"]["library"] == "orbax"
    # a C++ log's error line cut short, named by its file and line (jax#40487)
    [log] = await explain(client, "679")
    assert log["entry"]["message"] == "failed to create cublas handle: {ret}"
    # VS Code's cell frames, the message not copied: the raising line's literal (optimistix#37)
    [cell] = await explain(client, "796")
    assert cell["entry"]["identified_by"] == "raise_site"
    assert cell["entry"]["library"] == "equinox"


async def test_stop_31_forms_from_the_editor(client: LanguageClient) -> None:
    # `import optax` failing in chex's imports, cut before the message (chex#197)
    [skew] = await explain(client, "887")
    assert skew["entry"]["id"] == "library-jax-version-skew"
    assert skew["entry"]["identified_by"] == "raise_site"
    # JAX's note copied without the error after it (aaf#2)
    [note] = await explain(client, "438")
    assert note["entry"]["id"] == "jax-traceback-note-without-error"
    # VS Code's error copy cut inside its message (jax#24939)
    [copy] = await explain(client, "948")
    assert copy["exception"] == "FloatingPointError"
    assert copy["entry"]["id"] == "debug-nans-invalid-value"
    # dask's log of a task's exception as a quoted repr (tn4ml#4)
    [dask] = await explain(client, "831")
    assert dask["exception"] == "TracerArrayConversionError"


async def test_stop_32_forms_from_the_editor(client: LanguageClient) -> None:
    # `import jax` stopping at `import jaxlib` in JAX's own frames, cut before the message (jax#531)
    [load] = await explain(client, "1093")
    assert load["entry"]["id"] == "jax-import-failed"
    assert load["entry"]["identified_by"] == "raise_site"
    # The error written as the text's opening comment (jax#10044)
    [comment] = await explain(client, "1006")
    assert comment["exception"] == "ValueError"
    # An error before JAX's note, the copy stopping after the note (jax#20236)
    [reuse] = await explain(client, "1034")
    assert reuse["exception"] == "jax.errors.KeyReuseError"
    assert reuse["entry"]["id"] == "random-key-reuse"
    # The exception line a text opens with, output after it (jax#13409)
    [opening] = await explain(client, "1211")
    assert opening["exception"] == "AttributeError"
    assert opening["entry"]["id"] == "jaxlib-missing-attribute"
