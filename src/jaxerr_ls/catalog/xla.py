"""Errors raised below JAX's Python: the messages XLA and jaxlib build in C++ (the generated
`catalog/xla/messages.json.gz`, see `jaxerr_ls.extract.xla`) as catalog entries, and what a
runtime error's text looks like when it reaches Python.

A status reaches Python as `XlaRuntimeError` (`jaxlib.xla_extension`, `jaxlib._jax`; before
jaxlib 0.3.x a plain `RuntimeError`), now `jax.errors.JaxRuntimeError`, its message the status
code and text: `INTERNAL: ...`. XLA often wraps one status in another (`INTERNAL: Failed to
execute XLA Runtime executable: run time error: custom call 'xla.gpu.fft' failed: ...`) and older
releases printed the code in words (`Resource exhausted: ...`), so a template of this source is
also tried where each `: `-separated segment of the message starts.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from jaxerr_ls.catalog.model import Entry, Site

LIBRARY = "xla"
EXCEPTION = "XlaRuntimeError"
# Classes that carry an XLA status to Python, across releases (all print the same text).
RUNTIME_CLASSES = frozenset(
    {"XlaRuntimeError", "JaxRuntimeError", "RuntimeError", "JaxStackTraceBeforeTransformation"}
)
STATUS_CODES = (
    "INTERNAL",
    "INVALID_ARGUMENT",
    "FAILED_PRECONDITION",
    "RESOURCE_EXHAUSTED",
    "UNIMPLEMENTED",
    "UNAVAILABLE",
    "NOT_FOUND",
    "UNKNOWN",
    "ABORTED",
    "CANCELLED",
    "DEADLINE_EXCEEDED",
    "ALREADY_EXISTS",
    "OUT_OF_RANGE",
    "PERMISSION_DENIED",
    "DATA_LOSS",
    "UNAUTHENTICATED",
)
# `INTERNAL: `, and the words older releases printed (`Resource exhausted: `).
STATUS_PREFIX = re.compile(
    r"(?:"
    + "|".join(STATUS_CODES)
    + "|"
    + "|".join(code.replace("_", " ").capitalize() for code in STATUS_CODES)
    + r"):\s"
)
# Where a wrapped status may start: the message's start, a line's start, after `: ` or `; `.
_SEGMENT = re.compile(r"(?:^|\n|: |; )")
MAX_SEGMENTS = 40


def looks_like_status(message: str) -> bool:
    """The message carries an XLA status (`INTERNAL: ...`, `Resource exhausted: ...`)."""
    return STATUS_PREFIX.match(message.lstrip()) is not None


def segment_starts(message: str) -> list[int]:
    """Positions in the message where a (wrapped) status text may begin."""
    starts = [found.end() for found in _SEGMENT.finditer(message)]
    return sorted(set(starts))[:MAX_SEGMENTS]


def strip_status(template: str) -> str:
    """`INTERNAL: text` -> `text` (the body a wrapped message repeats)."""
    found = STATUS_PREFIX.match(template)
    return template[found.end() :] if found else template


def _site(raw: dict[str, object], sources: list[dict[str, str]]) -> Site | None:
    number, file, line = raw.get("source"), raw.get("file"), raw.get("line")
    if not isinstance(number, int) or not 0 <= number < len(sources):
        return None
    if not isinstance(file, str) or not isinstance(line, int) or line < 1:
        return None
    source = sources[number]
    repo, commit = source.get("repo", ""), source.get("commit", "")
    where = f"{repo}@{commit}" if repo and commit else source.get("name", "xla")
    function = raw.get("function")
    return Site(file=file, line=line, function=str(function or "<file scope>"), jax=where)


def load_xla(path: Path) -> tuple[list[Entry], list[str]]:
    """The generated entries of `catalog/xla/messages.json.gz`, and problems met reading it."""
    label = f"catalog/xla/{path.name}"
    try:
        data = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, EOFError) as exc:
        return [], [f"{label}: not readable JSON: {exc}"]
    if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
        return [], [f"{label}: no 'messages' list"]
    sources = [s for s in data.get("sources", []) if isinstance(s, dict)]
    entries: list[Entry] = []
    problems: list[str] = []
    for number, raw in enumerate(data["messages"]):
        if not isinstance(raw, dict):
            problems.append(f"{label}: message #{number}: not an object")
            continue
        kind, code, text, entry_id = (raw.get(k) for k in ("kind", "code", "message", "id"))
        if not all(isinstance(v, str) and v for v in (kind, code, text, entry_id)):
            problems.append(f"{label}: message #{number}: needs id, kind, code and message")
            continue
        assert isinstance(code, str) and isinstance(text, str) and isinstance(entry_id, str)
        status = kind == "status"
        message = f"{code}: {text}" if status else text
        sites = [_site(s, sources) for s in raw.get("sites", []) if isinstance(s, dict)]
        entries.append(
            Entry(
                id=entry_id,
                exception=EXCEPTION if status else code,
                message=message,
                title=message.split("\n", 1)[0][:80],
                curated=False,
                raised_at=tuple(s for s in sites if s is not None),
                library=LIBRARY,
            )
        )
    return entries, problems
