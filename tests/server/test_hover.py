"""Hover on JAX APIs lists their catalogued errors; positions hold after emoji."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from jaxerr_ls.catalog import Catalog

from .conftest import encoding, open_doc, root, units

PROGRAM = """import jax
import jax.numpy as jnp
from jax import lax
from functools import partial
from jax.experimental import pallas as pl
from jax.experimental.pallas import mosaic_gpu as plgpu


@partial(jax.jit, static_argnums=0)
def f(n, x):
    ys = jax.lax.scan(lambda c, y: (c, y), 0.0, x)
    return jax.grad(jnp.sum)(x) + jax.vmap(jnp.sin)(x), ys


g = jax.shard_map(f, mesh=None, in_specs=None, out_specs=None)
s = "😀🎉"; h = lax.scan(f, 0, None)
"""


pytestmark = pytest.mark.asyncio(loop_scope="session")


def position(text: str, line: int, needle: str, enc: str) -> types.Position:
    """Where `needle` starts on `line`, in the client's units."""
    return types.Position(line, units(text.splitlines()[line].split(needle)[0], enc))


CASES = [
    (8, "jit", "jax.jit"),
    (10, "scan", "jax.lax.scan"),
    (11, "grad", "jax.grad"),
    (11, "vmap", "jax.vmap"),
    (14, "shard_map", "jax.shard_map"),
    (15, "scan", "jax.lax.scan"),  # after emoji, through `from jax import lax`
]


@pytest.mark.parametrize(("line", "word", "api"), CASES)
async def test_hover_lists_catalogued_errors(
    client: LanguageClient, catalog: Catalog, line: int, word: str, api: str
) -> None:
    entries = catalog.for_api(api)
    assert entries, f"the catalog has no errors for {api}"
    uri = open_doc(client, root(client) / "prog.py", PROGRAM)
    start = position(PROGRAM, line, word, encoding(client))
    inside = types.Position(line, start.character + 1)
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), inside)
    )
    assert result is not None
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown
    text = result.contents.value
    errors = sum(1 for e in entries if not e.warns and not e.logs)  # warnings, logs apart
    assert f"`{api}`" in text and f"{errors} catalogued" in text
    for entry in entries[:3]:
        assert entry.id in text
    if len(entries) > 3:
        assert f"{len(entries) - 3} more" in text
    # The word range, in the client's units (utf-8 for Neovim, utf-16 for VS Code).
    assert result.range == types.Range(start, types.Position(line, start.character + len(word)))


async def test_no_hover_on_plain_names(client: LanguageClient) -> None:
    uri = open_doc(client, root(client) / "prog.py", PROGRAM)
    for line, char in [(9, 4), (15, 1), (15, 6), (0, 0)]:  # `def`, `s`, inside the string, `import`
        result = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, char))
        )
        assert result is None
