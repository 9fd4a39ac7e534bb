"""The pure pieces behind the server: name resolution, hover text, the diagnostics store."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from jaxerr_ls.catalog import Catalog, Entry
from jaxerr_ls.explain.diagnostics import Change, Item, Span, Store, follow, span_of
from jaxerr_ls.render.markdown import render_api_hover
from jaxerr_ls.resolve import dotted_at, public_name, qualify, scan_imports
from jaxerr_ls.shells.lsp.hover import markdown_supported
from jaxerr_ls.shells.lsp.watch import diff, read_text, scan

IMPORTS = """import jax, numpy as np
import jax.numpy as jnp
from jax import lax
from jax.experimental.pallas import mosaic_gpu as plgpu
from jax.experimental import pallas as pl
from functools import partial
from jax import (  # several
    jit,
    grad as g,
)
from . import local
from jax.sharding import *
if True: import jax.random as jr; from jax import vmap \\
    as vm
"""


def test_imports_bind_names() -> None:
    bound = scan_imports(IMPORTS)
    assert bound == {
        "jax": "jax",
        "np": "numpy",
        "jnp": "jax.numpy",
        "lax": "jax.lax",
        "plgpu": "jax.experimental.pallas.mosaic_gpu",
        "pl": "jax.experimental.pallas",
        "partial": "functools.partial",
        "jit": "jax.jit",
        "g": "jax.grad",
        "jr": "jax.random",
        "vm": "jax.vmap",
    }


def resolve(line: str, column: int) -> str | None:
    name = dotted_at(line, column)
    return None if name is None else qualify(name, scan_imports(IMPORTS))


def test_cursor_names() -> None:
    assert resolve("@partial(jax.jit, static_argnums=0)", 14) == "jax.jit"
    assert resolve("@partial(jax.jit, static_argnums=0)", 10) == "jax"
    assert resolve("y = jax.lax.scan(f, x)", 13) == "jax.lax.scan"
    assert resolve("y = jnp.zeros(3)", 9) == "jax.numpy.zeros"
    assert resolve("y = plgpu.copy_smem_to_gmem(a)", 12) == (
        "jax.experimental.pallas.mosaic_gpu.copy_smem_to_gmem"
    )
    assert resolve("@jit", 2) == "jax.jit"
    assert resolve("x = g(f)(1)", 4) == "jax.grad"
    assert resolve("y = unknown.thing", 14) is None
    assert resolve("s = 'jax.jit'  # jax.jit", 8) is None  # in a string
    assert resolve("s = 1  # jax.jit", 12) is None  # in a comment
    emoji = 'x = "😀"; y = jax.vmap(f)'
    assert resolve(emoji, emoji.index("vmap") + 1) == "jax.vmap"
    assert dotted_at("x = 1", 4) is None


def test_public_names_for_private_paths() -> None:
    apis = {"jax.jit", "jax.lax.scan", "jax.numpy.sum", "jax.experimental.shard_map.shard_map"}
    assert public_name("jax._src.api.jit", apis) == "jax.jit"
    assert public_name("jax._src.lax.control_flow.loops.scan", apis) == "jax.lax.scan"
    assert public_name("jax._src.numpy.reductions.sum", apis) == "jax.numpy.sum"
    assert public_name("jax.jit", apis) == "jax.jit"
    assert public_name("numpy.sum", apis) is None


def entry(number: int, curated: bool = False) -> Entry:
    return Entry(
        id=f"e{number}",
        exception="ValueError",
        message=f"bad <thing> number {number}",
        title=f"Title {number}",
        curated=curated,
        meaning="It means something. And more.",
        solutions=("Do this first. Then that.",),
        apis=("jax.jit",),
        frequency=number,
        docs="https://example.org" if curated else "",
    )


def test_hover_markdown_and_plain() -> None:
    catalog = Catalog.of([entry(n, curated=n == 1) for n in range(1, 7)])
    entries = catalog.for_api("jax.jit")
    text = render_api_hover("jax.jit", entries)
    assert text.startswith("### `jax.jit` — 6 catalogued errors")
    assert "**Title 1** `e1` · [docs](https://example.org)" in text
    assert "*Meaning:* It means something." in text and "And more" not in text
    assert "*Fix:* Do this first." in text
    assert "bad \\<thing\\>" in text  # message text is escaped
    assert "**3 more**:" in text and text.count("\n- `e") == 3
    plain = render_api_hover("jax.jit", entries, markdown=False)
    assert "**" not in plain and "`" not in plain.split("\n")[0]
    assert "jax.jit: 6 catalogued errors" in plain and "3 more:" in plain


def test_markup_from_capabilities() -> None:
    def caps(*formats: types.MarkupKind) -> types.ClientCapabilities:
        hover = types.HoverClientCapabilities(content_format=list(formats))
        return types.ClientCapabilities(
            text_document=types.TextDocumentClientCapabilities(hover=hover)
        )

    assert markdown_supported(caps(types.MarkupKind.Markdown, types.MarkupKind.PlainText))
    assert not markdown_supported(caps(types.MarkupKind.PlainText, types.MarkupKind.Markdown))
    assert not markdown_supported(caps())
    assert not markdown_supported(types.ClientCapabilities())


def item(line: int, text: str, origin: str = "command") -> Item:
    return Item("file:///a.py", span_of("    " + text, text, line), text, "m", origin)


LINES = ["import jax", "", "def f(x):", "    ref = jax.new_ref(x)", "    return ref"]


def test_follow_edits() -> None:
    it = item(3, "ref = jax.new_ref(x)")
    assert it.span == Span(3, 4, 24)
    inserted = ["# a", "# b", *LINES]
    assert follow(it, [Change(0, 0, "# a\n# b\n")], inserted).span.line == 5  # type: ignore[union-attr]
    removed = LINES[1:]
    assert follow(it, [Change(0, 1, "")], removed).span.line == 2  # type: ignore[union-attr]
    # A newline typed at the start of the item's line moves it down by one.
    split = [*LINES[:3], "", *LINES[3:]]
    assert follow(it, [Change(3, 3, "\n")], split).span.line == 4  # type: ignore[union-attr]
    assert follow(it, [Change(3, 4, "")], [*LINES[:3], LINES[4]]) is None  # line deleted
    changed = [*LINES[:3], "    ref = 3", LINES[4]]
    assert follow(it, [Change(3, 3, "3")], changed) is None  # text no longer matches
    assert follow(it, [Change(-1, -1, "")], ["x", *LINES]).span.line == 4  # type: ignore[union-attr]
    assert follow(it, [Change(4, 4, "  ")], LINES) is it  # edits below leave it alone


def test_store_origins_and_revisions() -> None:
    store = Store().replace_origin("command", [item(3, "a")])
    store = store.replace_origin("/w/.jaxerr/x.txt", [item(1, "b", "/w/.jaxerr/x.txt")])
    assert len(store.for_uri("file:///a.py")) == 2 and store.revision == 2
    store = store.replace_origin("command", [])
    assert [i.text for i in store.items] == ["b"]
    assert store.clear().items == () and store.clear().revision == store.revision + 1
    assert store.edited("file:///other.py", [Change(0, 0, "\n")], []) is store


def test_watch_scan_and_diff(tmp_path: Path) -> None:
    assert scan([tmp_path]) == {}
    (tmp_path / ".jaxerr").mkdir()
    (tmp_path / ".jaxerr" / "last-run.txt").write_bytes(b"\xff ok")
    (tmp_path / ".jaxerr" / "notes.md").write_text("no")
    first = scan([tmp_path])
    assert list(first) == [str(tmp_path / ".jaxerr" / "last-run.txt")]
    assert diff({}, first).changed == tuple(first)
    assert diff(first, {}).removed == tuple(first)
    assert read_text(next(iter(first))) == "\ufffd ok"


def test_same_error_from_two_origins_is_shown_once() -> None:
    def item(origin: str, line: int = 4) -> Item:
        return Item(
            uri="file:///w/a.py",
            span=Span(line, 4, 20),
            text="ref = jax.new_ref(x)",
            message="ValueError: Eager shard_map cannot return a `jax.Ref`.",
            origin=origin,
            entry_id="eager-shard-map-ref",
        )

    store = Store().replace_origin("command", [item("command")])
    store = store.replace_origin("/w/.jaxerr/last-run.txt", [item("/w/.jaxerr/last-run.txt")])
    assert [i.origin for i in store.for_uri("file:///w/a.py")] == ["/w/.jaxerr/last-run.txt"]
    # A different line is a different diagnostic.
    store = store.replace_origin("command", [item("command", line=7)])
    assert len(store.for_uri("file:///w/a.py")) == 2
