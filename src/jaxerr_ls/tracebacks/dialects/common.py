"""Line shapes shared by the dialects."""

from __future__ import annotations

import re

# `jax.errors.TracerBoolConversionError: message`, `KeyboardInterrupt`; dotted names allowed,
# and a class defined in a function (`jaxlib.mlir._mlir_libs._site_initialize.<locals>.MLIRError`).
EXCEPTION = re.compile(
    r"^(?P<cls>[A-Za-z_]\w*(?:\.(?:<locals>\.)?[A-Za-z_]\w*)*)(?::(?P<msg>.*))?$"
)
# An absl (glog) record's header, as XLA's C++ prints it: `W1119 06:44:07.190296  110516
# spmd_partitioner.cc:4935] `; the seconds are the epoch's before `absl::InitializeLog()`.
ABSL_TIME = r"[IWEF]\d{4} \d\d:\d\d:\d+\.\d+ +\d+ "
ABSL_HEADER = ABSL_TIME + r"\S+:\d+\] "
SEPARATORS = {
    "The above exception was the direct cause of the following exception:": "cause",
    "During handling of the above exception, another exception occurred:": "context",
}
# A frame's source line with an annotated assignment (`out: Array = f(x)`), pasted unindented:
# a lowercase name and a type before `=` is Python code, not `Class: message`.
_ANNOTATED = re.compile(r"[a-z_][a-z0-9_]*: [A-Za-z_][\w.]*(?:\[[^\]=]*\])? = ")
# Words that make a bare `Name` line (no colon) an exception line rather than prose.
_BARE_SUFFIXES = ("Error", "Exception", "Interrupt", "Exit", "Warning", "Group", "Iteration")

# An exception whose message ends by opening another traceback (`XlaRuntimeError: INTERNAL:
# ... CpuCallback error: Traceback (most recent call last):`): what follows is its message.
CARRIER = re.compile(
    r"^[A-Za-z_][\w.]*(?:Error|Exception): .*\bTraceback \(most recent call last\):\s*$"
)


# A separator's line cut where the paste stops (`The above exception was the direct cause`):
# this much of Python's sentence is no message's.
_MIN_SEPARATOR_CUT = 30


def separator(line: str) -> str | None:
    stripped = line.strip()
    found = SEPARATORS.get(stripped)
    if found is None and len(stripped) >= _MIN_SEPARATOR_CUT:
        found = next((kind for s, kind in SEPARATORS.items() if s.startswith(stripped)), None)
    return found


def exception_line(line: str) -> re.Match[str] | None:
    """An exception line: `Class: message`, or a bare class name that looks like one."""
    found = EXCEPTION.match(line)
    if found is None or _ANNOTATED.match(line):
        return None
    if found.group("msg") is None and not found.group("cls").endswith(_BARE_SUFFIXES):
        return None
    return found


def short_class(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def trim_message(lines: list[str]) -> list[str]:
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()
    return lines
