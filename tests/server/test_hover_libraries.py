"""Hover on the APIs of the libraries used with JAX (Flax linen and NNX, Equinox, Optax, Orbax,
Chex) lists their catalogued errors, resolved through the file's import aliases."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from jaxerr_ls.catalog import Catalog

from .conftest import encoding, open_doc, root, units

PROGRAM = """import chex
import equinox as eqx
import flax.linen as nn
import optax
import orbax.checkpoint as ocp
from flax import nnx


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


class Lin(eqx.Module):
    w: int


layer = nnx.Linear(2, 3, rngs=nnx.Rngs(0))
step = eqx.filter_jit(lambda x: x)
opt = optax.adam(1e-3)
decayed = optax.adamw(1e-3)
manager = ocp.CheckpointManager("/tmp/ckpt")
chex.assert_shape(layer.kernel.value, (2, 3))
variables = MLP().apply({}, None)
"""

pytestmark = pytest.mark.asyncio(loop_scope="session")

# (line, word, the API it resolves to, a curated entry the hover must name, library)
CASES = [
    (8, "Module", "flax.linen.Module", "flax-compact-unbound-module", "flax"),
    (14, "Module", "equinox.Module", "equinox-field-not-initialized", "equinox"),
    (18, "Linear", "flax.nnx.Linear", None, "flax"),
    (19, "filter_jit", "equinox.filter_jit", "equinox-runtime-error", "equinox"),
    (20, "adam", "optax.adam", None, "optax"),
    (21, "adamw", "optax.adamw", "optax-update-needs-params", "optax"),
    (
        22,
        "CheckpointManager",
        "orbax.checkpoint.CheckpointManager",
        "orbax-path-not-absolute",
        "orbax",
    ),
    (23, "assert_shape", "chex.assert_shape", "chex-assert-shape", "chex"),
    (24, "apply", "flax.linen.Module.apply", "flax-scope-param-shape", "flax"),
]


def position(text: str, line: int, needle: str, enc: str) -> types.Position:
    return types.Position(line, units(text.splitlines()[line].split(needle)[0], enc))


@pytest.mark.parametrize(("line", "word", "api", "curated", "library"), CASES)
async def test_hover_on_a_library_api_lists_its_errors(
    client: LanguageClient,
    catalog: Catalog,
    line: int,
    word: str,
    api: str,
    curated: str | None,
    library: str,
) -> None:
    entries = catalog.for_api(api)
    assert entries, f"the catalog has no errors for {api}"
    assert {e.library for e in entries} == {library}
    uri = open_doc(client, root(client) / "libs.py", PROGRAM)
    start = position(PROGRAM, line, word, encoding(client))
    result = await client.text_document_hover_async(
        types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(line, start.character + 1)
        )
    )
    assert result is not None, f"no hover on {word} ({api})"
    assert isinstance(result.contents, types.MarkupContent)
    text = result.contents.value
    # The library's warnings and logged messages are counted apart from its errors, as JAX's are.
    errors = [e for e in entries if not e.warns and not e.logs]
    assert f"`{api}`" in text and f"{len(errors)} catalogued" in text
    warned = sum(1 for e in entries if e.warns)
    assert (f"+ {warned} warning" in text) == bool(warned)
    logged = sum(1 for e in entries if e.logs)
    assert (f"+ {logged} logged message" in text) == bool(logged)
    for entry in entries[:3]:
        assert entry.id in text
    if curated is not None:
        assert curated in [e.id for e in entries[:3]], [e.id for e in entries[:5]]
    assert result.range == types.Range(start, types.Position(line, start.character + len(word)))
