"""A missing name's message cut inside the name (a paste copied from an excerpt, a log line
cut at its width): `module 'jax.core' has no attribute 'DebugInf`, `cannot import name
'transf`. The name is completed when only one name can be meant: the one attribute of that
module some release had that begins so (the API history), or the one name the raising
`from ... import ...` line imports that begins so. A message cut before its name (`module
'jaxlib.x`, even `modu`) is completed from the raising line when one JAX name on it fits the
cut and is one some catalogued release lacked (jaxlib's, which the history does not hold, by
the entry its whole message then matches). Pure: no LSP, no I/O."""

from __future__ import annotations

import re
from dataclasses import dataclass

from jaxerr_ls.upgrades.history import ApiHistory

# A name cut this short could be many: three characters at least.
_CUT_ATTRIBUTE = re.compile(
    r"module '(?P<module>jax(?:lib)?(?:\.\w+)*)' has no attribute '(?P<prefix>\w{3,})\Z"
)
_CUT_IMPORT = re.compile(r"cannot\s+import\s+name\s+'(?P<prefix>\w{3,})\Z")
_MODULE_WORDS = "module '"
# A message cut before its name says at least this much (`modu`).
_MIN_MODULE_CUT = 4
_JAX_NAME = re.compile(r"(?<![\w.])jax(?:lib)?(?:\.\w+)+")
_FROM_IMPORT = re.compile(r"\A\s*from\s+(?P<module>jax(?:lib)?(?:\.\w+)*)\s+import\s+(?P<names>.+)")


@dataclass(frozen=True)
class Completed:
    """The message as it would have read whole, and what was cut and completed."""

    message: str
    cut: str
    name: str  # the dotted name read
    from_source: bool = False  # read off the raising line, the message cut before the name


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


def cut_before_name(text: str) -> bool:
    """`module 'jaxlib.x`, `modu`: a missing attribute's message cut before its name."""
    if len(text) < _MIN_MODULE_CUT:
        return False
    if _MODULE_WORDS.startswith(text):
        return True
    return re.fullmatch(r"module '[\w.]*", text) is not None


def complete_from_source(message: str, history: ApiHistory, source: str) -> Completed | None:
    """A missing attribute's message cut before its name, completed from the raising line: the
    one `module 'M' has no attribute 'A'` that a JAX name on the line makes, that begins as the
    message does, of an attribute some catalogued release lacked."""
    text = message.rstrip()
    if not cut_before_name(text):
        return None
    found: dict[str, str] = {}
    for dotted in _JAX_NAME.findall(source):
        parts = dotted.split(".")
        for cut in range(1, len(parts)):
            module, attribute = ".".join(parts[:cut]), parts[cut]
            whole = f"module '{module}' has no attribute '{attribute}'"
            if not whole.startswith(text):
                continue
            facts = history.facts(f"{module}.{attribute}")
            if facts is None:
                # The history is JAX's: jaxlib's names are left to the entries matching them.
                if parts[0] == "jaxlib":
                    found[whole] = f"{module}.{attribute}"
            elif facts.added_in != history.oldest or facts.last_release:
                found[whole] = f"{module}.{attribute}"
    if len(found) != 1:
        return None
    ((whole, name),) = found.items()
    return Completed(whole, text, name, from_source=True)


def cut_note(completed: Completed) -> str:
    """The sentence that says what was read into the cut message."""
    if completed.from_source:
        return (
            f"(The message stops before the name, at `{completed.cut}`: `{completed.name}`, "
            "the one JAX name on the failing line that fits, is read as the missing one.)"
        )
    return (
        f"(The message stops inside the name: `{completed.cut}` is read as "
        f"`{completed.name}`, the one name it can begin.)"
    )
