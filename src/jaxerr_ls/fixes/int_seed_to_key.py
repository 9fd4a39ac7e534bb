"""`int-seed-to-key`: `jax.random.normal(0, ...)` -> `jax.random.normal(jax.random.key(0), ...)`.

Safe: an integer is not a key, so the original call can only raise. `key(0)` and `PRNGKey(0)` seed
the same default generator and yield the same numbers (checked under JAX 0.10.2); `key` is the
recommended typed-key API, and the key is consumed right away by the sampler, so its type does not
leak. Integer literals in the key position (first argument or `key=`) are wrapped; so is a plain
name there (`normal(seed, ...)`) when the diagnostic says the value it got was an integer and the
name does not look like a key (`key`, `rng`, ...).
"""

from __future__ import annotations

from jaxerr_ls.fixes.base import FixContext, ProposedFix, TextEdit
from jaxerr_ls.fixes.common import field, open_file, proposal, replace_node
from jaxerr_ls.fixes.imports import spell_or_import
from jaxerr_ls.fixes.syntax import Node

# jax.random functions that do not take a key first.
_NOT_KEYED = frozenset(
    {
        "key",
        "PRNGKey",
        "key_data",
        "wrap_key_data",
        "key_impl",
        "default_prng_impl",
        "resolve_prng_impl",
    }
)


def _int_literal(node: Node) -> bool:
    if node.type == "factor" and node.children[0].value in ("-", "+"):
        node = node.children[1]
    text = node.value.lower().replace("_", "")
    if node.type != "number":
        return False
    return text.startswith(("0x", "0o", "0b")) or text.isdigit()


def _seed_like(name: str) -> bool:
    lowered = name.lower()
    return not any(part in lowered for part in ("key", "rng", "prng"))


class _IntSeedToKey:
    id = "int-seed-to-key"
    safe = True

    def propose(self, ctx: FixContext) -> ProposedFix | None:
        file = open_file(ctx)
        random = spell_or_import(file.imports, "jax.random", ("jax", "jax"))
        if random is None:
            return None
        got = field(ctx, "seed", "got", "value", "key_data") or ""
        int_seen = ctx.entry_id is not None and got.lstrip("-").isdigit()
        edits: list[TextEdit] = []
        for call in file.calls:
            qualified = file.qualify(call.callee_dotted())
            if qualified is None or not qualified.startswith("jax.random."):
                continue
            if qualified.rsplit(".", 1)[1] in _NOT_KEYED or qualified.count(".") != 2:
                continue
            args = call.args()
            keyed = [a for a in args if a.keyword == "key"] or args[:1]
            if not keyed or keyed[0].star or (keyed[0].keyword not in (None, "key")):
                continue
            value = keyed[0].value
            wrap = _int_literal(value) or (int_seen and value.is_name() and _seed_like(value.value))
            if wrap and file.cursor_in(value.start, value.end):
                edits.append(replace_node(value, f"{random.text}.key({value.code()})"))
        title = "Use a PRNG key: jax.random.key(seed)"
        return proposal(self.id, title, self.safe, edits, file.imports, random)


FIX = _IntSeedToKey()
