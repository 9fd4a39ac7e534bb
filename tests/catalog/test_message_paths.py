"""Messages JAX words on several paths before one raise (`extract/reaching.py`), and what
their new templates must not take from entries that say more: a curated entry, or the XLA
status a generated wrapper carries."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text

INDEX = Path(__file__).parents[2] / "catalog" / "index"

# Printed by JAX 0.10.2 (CPU) for `jnp.add(jnp.float32(1), jnp.int32(1))` under
# `jax_numpy_dtype_promotion='strict'`: the message is chosen among five branches.
STRICT = (
    "Input dtypes ('float32', 'int32') have no available implicit dtype promotion path when "
    "jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired output type, "
    "or set jax_numpy_dtype_promotion=standard."
)
# `python -c "from jax import lax; lax.add(1, 1.0)"` under JAX 0.10.2, its frames elided as a
# user shortens them (the command line first: what a class-less reading runs over).
SHELL = """$ python -c "from jax import lax; lax.add(1, 1.0)"
<...>
TypeError: lax.add requires arguments to have the same dtypes, got int32, float32. (Tip: jnp.add is a similar function that does automatic type promotion on inputs).
"""


def test_a_message_chosen_among_branches_has_its_entry(matcher: Matcher) -> None:
    found = matcher.match("jax.dtypes.TypePromotionError", STRICT)
    assert found is not None and found.score == 100
    assert found.entry.exception == "TypePromotionError"


def test_the_same_dtypes_check_of_every_release_is_the_curated_entry(matcher: Matcher) -> None:
    """0.1-0.2.25 worded it without `lax.` and without the tip (the older index's template,
    its values filled as JAX fills them); 0.2.26 on, `msg += " (Tip: ...)"` for most ops."""
    older = json.loads(gzip.decompress((INDEX / "older.json.gz").read_bytes()))
    template = (
        "{name} requires arguments to have the same dtypes, got {', '.join(map(str, types))}."
    )
    assert any(e["message"] == template for e in older["errors"]) or any(
        w["message"] == template for j in older["joins"].values() for w in j["wordings"]
    )
    message = template.replace("{name}", "add").replace(
        "{', '.join(map(str, types))}", "int32, float32"
    )
    for text in (
        message,
        "lax.sub requires arguments to have the same dtypes, got float32, int32.",
        SHELL.splitlines()[-1].split(": ", 1)[1],
    ):
        found = matcher.match("TypeError", text)
        assert found is not None and found.entry.id == "lax-dtype-mismatch", text


def test_a_shell_paste_is_read_at_its_exception_line(matcher: Matcher) -> None:
    (explained,) = explain_text(SHELL, matcher)
    assert explained.match is not None
    assert explained.match.entry.id == "lax-dtype-mismatch"
    assert explained.traceback.exception == "TypeError"


def test_a_generated_wrapper_gives_way_to_the_status_it_carries(matcher: Matcher) -> None:
    """jax#24829: `Unable to initialize backend '{platform}': {err}` says where; the XLA
    status inside says what failed (two processes claiming one CPU topology key)."""
    message = (
        "Unable to initialize backend 'cpu': ALREADY_EXISTS: Config key "
        "cpu:local_topology/cpu/3 already exists."
    )
    found = matcher.match("RuntimeError", message)
    assert found is not None
    assert found.entry.library == "xla" and "already-exists" in found.entry.id
    # With nothing known inside, the wrapper still names the error.
    bare = matcher.match("RuntimeError", "Unable to initialize backend 'cpu': no reason given")
    assert bare is not None and bare.entry.message.startswith("Unable to initialize backend")
