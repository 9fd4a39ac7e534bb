"""The dotted name under a cursor, and what it means given the file's imports."""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

_WORD = re.compile(r"\w+")
# Names jedi could only tell us are not JAX: skip the slow path for them.
# A file naming none of these cannot reach a catalogued API (JAX's or a library's used with it).
_PACKAGES = ("jax", "flax", "equinox", "optax", "orbax", "chex")
_NOT_JAX = frozenset(dir(builtins)) | frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)


@dataclass(frozen=True)
class DottedName:
    """`jax.lax.scan` with the cursor on `lax` is chain ("jax", "lax") and lax's columns."""

    chain: tuple[str, ...]
    start: int  # code-point columns of the word under the cursor
    end: int

    @property
    def dotted(self) -> str:
        return ".".join(self.chain)


def dotted_at(line: str, column: int) -> DottedName | None:
    """The attribute chain ending at the word under `column` (code points), or None."""
    for found in _WORD.finditer(line):
        if found.start() <= column <= found.end() and not found.group(0)[0].isdigit():
            break
    else:
        return None
    if _in_comment_or_string(line, found.start()):
        return None
    chain = [found.group(0)]
    position = found.start()
    while True:
        before = line[:position].rstrip()
        if not before.endswith("."):
            break
        head = re.search(r"(\w+)\s*$", before[:-1])
        if head is None or head.group(1)[0].isdigit():
            break
        chain.insert(0, head.group(1))
        position = head.start(1)
    return DottedName(tuple(chain), found.start(), found.end())


def _in_comment_or_string(line: str, column: int) -> bool:
    """A cheap one-line check; multi-line strings are not seen (a hover there is harmless)."""
    quote = ""
    index = 0
    while index < column:
        char = line[index]
        if quote:
            if char == "\\":
                index += 1
            elif line.startswith(quote, index):
                index += len(quote) - 1
                quote = ""
        elif char == "#":
            return True
        elif char in "'\"":
            quote = char * 3 if line.startswith(char * 3, index) else char
            index += len(quote) - 1
        index += 1
    return bool(quote)


def qualify(name: DottedName, bindings: Mapping[str, str]) -> str | None:
    """`jnp.zeros` with jnp -> jax.numpy is `jax.numpy.zeros`; None when the head is not bound."""
    head = bindings.get(name.chain[0])
    if head is None:
        return None
    return ".".join((head, *name.chain[1:]))


def worth_inferring(name: DottedName, source: str) -> bool:
    """Whether asking jedi could find a catalogued API: not a builtin or keyword, in a file using
    JAX or a library the catalog covers."""
    return name.chain[0] not in _NOT_JAX and any(package in source for package in _PACKAGES)


def public_name(qualified: str, apis: Collection[str]) -> str | None:
    """The catalogued public name for what jedi calls `jax._src.api.jit` (here `jax.jit`).

    Among the APIs with the same last segment and package, the one sharing most module segments
    with the private path wins; ties go to the shortest (the most public) name.
    """
    if qualified in apis:
        return qualified
    parts = qualified.split(".")
    candidates = [
        api
        for api in apis
        if api.rsplit(".", 1)[-1] == parts[-1] and api.split(".", 1)[0] == parts[0]
    ]
    if not candidates:
        return None
    private = {p.lstrip("_") for p in parts[1:-1]}

    def score(api: str) -> tuple[int, int]:
        shared = len(private & set(api.split(".")[1:-1]))
        return (-shared, len(api))

    return min(candidates, key=score)
