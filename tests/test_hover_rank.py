"""The hover's order (issue 19): what the call risks here first, then the API's own, each once."""

from __future__ import annotations

from jaxerr_ls.catalog import load_catalog
from jaxerr_ls.render.hover_rank import rank_hover
from jaxerr_ls.render.markdown import render_api_hover


def test_the_line_then_the_shape_then_the_api_s_own_order() -> None:
    catalog = load_catalog()
    own = catalog.for_api("jax.jit")
    method = catalog.get("jit-method-self")
    bool_error = catalog.get("tracer-bool-conversion")
    assert method is not None and bool_error is not None
    ranked = rank_hover(own, [bool_error], [method, bool_error])
    assert [e.id for e in ranked.entries[:2]] == ["tracer-bool-conversion", "jit-method-self"]
    assert ranked.here == 2
    assert len({e.id for e in ranked.entries}) == len(ranked.entries)
    rest = [e.id for e in ranked.entries[2:]]
    assert rest == [e.id for e in own if e.id not in ("tracer-bool-conversion", "jit-method-self")]
    # Nothing at risk here: the API's own order, unchanged.
    plain = rank_hover(own)
    assert plain.entries == tuple(own) and plain.here == 0
    text = render_api_hover("jax.jit", ranked.entries, here=ranked.here)
    assert "At risk here" in text and "`jit-method-self`" in text.split("---")[1]


def test_jax_s_own_warnings_come_after_every_error_and_are_said_to_be_warnings() -> None:
    """Issue 18: the extracted warnings (jax.nn.one_hot's own float-input DeprecationWarning)
    never take an error's place in a hover; the header counts them apart and their lines say
    the site warns."""
    catalog = load_catalog()
    own = catalog.for_api("jax.nn.one_hot")
    warned = [i for i, e in enumerate(own) if e.warns and not e.curated]
    errors = [i for i, e in enumerate(own) if not e.warns]
    assert warned and errors and max(errors) < min(warned)
    own_warning = next(e for e in own if e.message.startswith("jax.nn.one_hot input should be"))
    assert own_warning.exception == "DeprecationWarning"
    text = render_api_hover("jax.nn.one_hot", [own_warning, *own[:2]])
    assert text.startswith("### `jax.nn.one_hot` — 2 catalogued errors (jaxerr) + 1 warning")
    assert "Warned when `not dtypes.isdtype(" in text
