"""Which names a file's imports bind, read with a regular expression over the import lines only.

No parse tree and no inference: hover on `jnp.zeros` needs the file's import lines and nothing else,
which keeps the common case in microseconds even on long files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

# The start of an import statement (a line's first, or after `;` / `if x:`).
_STATEMENT = re.compile(
    r"(?:^|(?<=[;:]))[ \t]*(?:from[ \t]+(?P<module>[\w.]+)[ \t]+)?import[ \t]", re.MULTILINE
)
_ALIAS = re.compile(r"^(?P<name>[\w.]+)(?:\s+as\s+(?P<alias>\w+))?$")
_DOTTED = re.compile(r"^\w+(?:\.\w+)*$")
# `jit = jax.jit` at module level: a plain name given a dotted name, nothing else on the line.
_ASSIGNED = re.compile(
    r"^(?P<name>[A-Za-z_]\w*)[ \t]*=[ \t]*"
    r"(?P<value>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*(?:#.*)?$",
    re.MULTILINE,
)


def _logical_line(source: str, start: int) -> str:
    """From `start` to the end of the statement: through brackets and backslash continuations."""
    depth = 0
    position = start
    length = len(source)
    while position < length:
        char = source[position]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char == "\\" and position + 1 < length and source[position + 1] == "\n":
            position += 2
            continue
        elif char == "#":
            end = source.find("\n", position)
            position = length if end < 0 else end
            continue
        elif char in "\n;" and depth == 0:
            break
        position += 1
    return source[start:position]


def _names(clause: str) -> list[tuple[str, str | None]]:
    """`a.b as c, d` -> [("a.b", "c"), ("d", None)]; anything unexpected is skipped."""
    cleaned = re.sub(r"#[^\n]*", "", clause).replace("\\\n", " ")
    cleaned = cleaned.replace("(", " ").replace(")", " ")
    out: list[tuple[str, str | None]] = []
    for part in cleaned.split(","):
        found = _ALIAS.match(" ".join(part.split()))
        if found is not None and _DOTTED.match(found.group("name")):
            out.append((found.group("name"), found.group("alias")))
    return out


def scan_imports(source: str) -> Mapping[str, str]:
    """Local name -> qualified name for every import in the file (later imports win).

    `import jax.numpy as jnp` binds jnp -> jax.numpy; `import jax.numpy` binds jax -> jax;
    `from jax import lax` binds lax -> jax.lax. Relative and star imports bind nothing we can name.
    A module-level alias of an imported name binds too: `jit = jax.jit` binds jit -> jax.jit.
    """
    bindings: dict[str, str] = {}
    for found in _STATEMENT.finditer(source):
        clause = _logical_line(source, found.end())
        module = found.group("module")
        if module is not None and module.startswith("."):
            continue
        for name, alias in _names(clause):
            if module is None:
                if alias is not None:
                    bindings[alias] = name
                else:
                    top = name.split(".", 1)[0]
                    bindings[top] = top
            elif "." not in name and name != "*":
                bindings[alias or name] = f"{module}.{name}"
    for found in _ASSIGNED.finditer(source):
        head, _, rest = found.group("value").partition(".")
        bound = bindings.get(head)
        if bound is not None and found.group("name") != head:
            bindings[found.group("name")] = f"{bound}.{rest}" if rest else bound
    return MappingProxyType(bindings)
