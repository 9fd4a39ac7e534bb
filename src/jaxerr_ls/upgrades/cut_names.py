"""A missing name's message cut inside the name (a paste copied from an excerpt, a log line
cut at its width): `module 'jax.core' has no attribute 'DebugInf`, `cannot import name
'transf`. The name is completed when only one name can be meant: the one attribute of that
module some release had that begins so (the API history), or the one name the raising
`from ... import ...` line imports that begins so. Pure: no LSP, no I/O."""

from __future__ import annotations

import re
from dataclasses import dataclass

from jaxerr_ls.upgrades.history import ApiHistory

# A name cut this short could be many: three characters at least.
_CUT_ATTRIBUTE = re.compile(
    r"module '(?P<module>jax(?:lib)?(?:\.\w+)*)' has no attribute '(?P<prefix>\w{3,})\Z"
)
_CUT_IMPORT = re.compile(r"cannot\s+import\s+name\s+'(?P<prefix>\w{3,})\Z")
_FROM_IMPORT = re.compile(r"\A\s*from\s+(?P<module>jax(?:lib)?(?:\.\w+)*)\s+import\s+(?P<names>.+)")


@dataclass(frozen=True)
class Completed:
    """The message as it would have read whole, and what was cut and completed."""

    message: str
    cut: str
    name: str  # the dotted name read


def complete_cut_name(message: str, history: ApiHistory, source: str) -> Completed | None:
    """The message with the name it stops inside completed, or None when the message is not cut
    inside a name, or the name could be more than one. `source`: the raising frame's line."""
    text = message.rstrip()
    found = _CUT_ATTRIBUTE.search(text)
    if found is not None:
        module, prefix = found["module"], found["prefix"]
        # Its submodules too (`module 'jax.scipy' has no attribute 'optimize`).
        below = [m[len(module) + 1 :] for m in history.module_names() if m.startswith(module + ".")]
        known = set(history.attribute_names(module)) | {m for m in below if "." not in m}
        names = sorted(n for n in known if n.startswith(prefix))
        if len(names) != 1:
            return None
        return Completed(
            f"{text[: found.start('prefix')]}{names[0]}'", prefix, f"{module}.{names[0]}"
        )
    found = _CUT_IMPORT.search(text)
    imported = _FROM_IMPORT.match(source)
    if found is None or imported is None:
        return None
    prefix, module = found["prefix"], imported["module"]
    listed = [n.split(" as ")[0].strip(" ()\\") for n in imported["names"].split(",")]
    names = [n for n in listed if n.startswith(prefix) and n.isidentifier()]
    if len(names) != 1:
        return None
    whole = f"{text[: found.start('prefix')]}{names[0]}' from '{module}'"
    return Completed(whole, prefix, f"{module}.{names[0]}")


def cut_note(completed: Completed) -> str:
    """The sentence that says what was read into the cut message."""
    return (
        f"(The message stops inside the name: `{completed.cut}` is read as "
        f"`{completed.name}`, the one name it can begin.)"
    )
