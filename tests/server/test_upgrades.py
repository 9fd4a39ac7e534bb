"""Upgrades in a real client: a removed JAX name is flagged on open with JAX's advice, its
rename is the preferred quick fix, and a real traceback is explained with the release."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import apply_edits, encoding, open_doc, root
from .test_diagnostics import explain
from .test_predict import change, wait_predicted
from .test_release import old_jax_client  # noqa: F401 - the fixture

pytestmark = pytest.mark.asyncio(loop_scope="session")

OLD = """import jax
import jax.numpy as jnp

params = {"w": jnp.ones(3), "b": jnp.zeros(())}
treedef = jax.tree_structure(params)
print(treedef.num_leaves)
"""
SAVED = Path(__file__).parents[1] / "upgrades" / "tracebacks" / "old_random_shuffle@0.10.2.txt"


async def test_removed_name_flagged_and_renamed(client: LanguageClient) -> None:
    uri = open_doc(client, root(client) / "upgrade_old.py", OLD)
    [warning] = await wait_predicted(client, uri, 1)
    assert warning.code == "removed-api" and warning.range.start.line == 4
    assert "jax.tree_structure is not in JAX" in warning.message
    assert "use jax.tree.structure" in warning.message
    assert isinstance(warning.data, dict) and warning.data["fields"]["removed_in"] == "0.6.0"
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            warning.range,
            types.CodeActionContext(diagnostics=[warning]),
        )
    )
    [rename] = [
        a
        for a in actions or []
        if isinstance(a, types.CodeAction) and a.kind == "quickfix" and "Rename" in a.title
    ]
    assert rename.title == "Rename jax.tree_structure to jax.tree.structure"
    assert rename.is_preferred
    assert rename.edit is not None and rename.edit.changes is not None
    fixed = apply_edits(OLD, rename.edit.changes[uri], encoding(client))
    assert "treedef = jax.tree.structure(params)" in fixed
    change(client, uri, fixed, 2)
    assert await wait_predicted(client, uri, 0) == []


async def test_real_traceback_explained_with_release_and_advice(client: LanguageClient) -> None:
    [result] = await explain(client, SAVED.read_text(encoding="utf-8"))
    assert result["entry"]["id"] == "removed-api"
    fields = result["fields"]
    assert fields["name"] == "jax.random.shuffle" and fields["removed_in"] == "0.4.31"
    assert "Use jax.random.permutation with independent=True" in fields["jax_message"]


NEW_ON_OLD = """import jax
import jax.numpy as jnp

tree = jax.tree_map(jnp.sin, {"a": jnp.ones(2)})
ref = jax.new_ref(jnp.zeros(()))
"""


async def test_the_interpreters_release_decides(
    old_jax_client: LanguageClient,  # noqa: F811 - the fixture imported above
) -> None:
    # The project's interpreter has JAX 0.4.38 (the server runs beside 0.10.2): jax.tree_map is
    # only deprecated there, and jax.new_ref does not exist yet.
    folder: Path = old_jax_client.root  # type: ignore[attr-defined]
    uri = open_doc(old_jax_client, folder / "upgrade_new.py", NEW_ON_OLD)
    found = await wait_predicted(old_jax_client, uri, 2)
    assert [(d.range.start.line, d.code) for d in found] == [
        (3, "deprecated-api"),
        (4, "api-not-yet-added"),
    ]
    assert all(isinstance(d.data, dict) for d in found)
    assert found[1].data["fields"]["added_in"] == "0.7.2"  # type: ignore[index]
    assert "jax.new_ref is not in JAX 0.4.38" in found[1].message


OLD_KEYWORDS = """import jax.numpy as jnp

x = jnp.linspace(-2.0, 2.0, 5)
print(jnp.clip(x, a_min=0.0))
"""


async def test_a_keyword_the_release_dropped_is_flagged(client: LanguageClient) -> None:
    # The server runs beside JAX 0.10.2, whose jnp.clip takes `min`/`max` only.
    uri = open_doc(client, root(client) / "upgrade_keywords.py", OLD_KEYWORDS)
    [warning] = await wait_predicted(client, uri, 1)
    assert warning.code == "keyword-not-in-release" and warning.range.start.line == 3
    assert "`a_min` is no parameter of jax.numpy.clip since JAX 0.10.0" in warning.message
    assert isinstance(warning.data, dict) and warning.data["fields"]["did_you_mean"] == "min"
    change(client, uri, OLD_KEYWORDS.replace("a_min=", "min="), 2)
    assert await wait_predicted(client, uri, 0) == []
