"""Code actions on a file over `actions.CHEAP_LINES` lines (issue 20): a refactoring where the
last analysis warns is offered, each time it is asked, and the server keeps none of the whole-file
state its fix built (parsed trees, the file's analysis: ~25 MB for 2,000 lines each version)."""

from __future__ import annotations

import io

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from jaxerr_ls.catalog import Catalog
from jaxerr_ls.shells.lsp import actions
from jaxerr_ls.shells.lsp.worker import Worker

BLOCK = """
@jax.jit
def step_{n}(x, n):
    return jnp.zeros(n) + x

"""


def test_a_refactoring_on_a_warned_line_of_a_large_file_holds_no_state(catalog: Catalog) -> None:
    source = "import jax\nimport jax.numpy as jnp\n" + "".join(
        BLOCK.format(n=n) for n in range(actions.CHEAP_LINES // 4)
    )
    assert len(source.splitlines()) > actions.CHEAP_LINES
    found = Worker(io.BytesIO()).analyse("file", "big.py", (None, None), source)["big.py"]
    warned = next(f for f in found if f.line == 5)  # `jnp.zeros(n)` of the first block
    analysed = tuple((f.entry, f.fields, f.line, f.end_line) for f in found)

    def offered(column: int) -> list[types.CodeAction]:
        request = actions.Request(
            uri="file:///big.py",
            source=source,
            lines=tuple(source.splitlines(True)),
            codec=PositionCodec(types.PositionEncodingKind.Utf16),
            line=warned.line,
            column=column,
            diagnostics=(),
            stored=(),
            only=None,
            analysed=analysed,
        )
        return actions.code_actions_of_large(request, catalog)

    first = offered(warned.column)
    assert first, f"no refactoring where {warned.entry} is predicted"
    assert offered(warned.column + 1) == first  # asked again at another cursor: the same
    # The edit: the first block's jit gets the argument static (checked on the function's part
    # of the file, as on the whole file: tests/fixes/test_component_view.py).
    edit = first[0].edit
    assert edit is not None and edit.changes is not None
    texts = [e.new_text for e in edit.changes["file:///big.py"]]
    assert texts == ["from functools import partial\n", 'partial(jax.jit, static_argnames=("n",))']
    from jaxerr_ls.analysis import build

    assert build._analyze_cached.cache_info().currsize == 0
