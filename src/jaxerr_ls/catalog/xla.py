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
import sys
from pathlib import Path

from jaxerr_ls.catalog.loglines import (
    SEVERITY_MEANING,
    SEVERITY_SOLUTIONS,
    header_starts,
    severity_title,
)
from jaxerr_ls.catalog.model import LOG_CLASS, PLACEHOLDER, Entry, Site

LIBRARY = "xla"
EXCEPTION = "XlaRuntimeError"
# Classes that carry an XLA status to Python, across releases (all print the same text).
RUNTIME_CLASSES = frozenset(
    {"XlaRuntimeError", "JaxRuntimeError", "RuntimeError", "JaxStackTraceBeforeTransformation"}
)
# Python's own classes jaxlib raised some statuses as, before `XlaRuntimeError` existed
# (`ValueError: INVALID_ARGUMENT: Donation requested for invalid buffer`, jax#9237): with a status
# at the message's start, the runtime class when the words match XLA's text. Never a family by
# class alone (`catalog/classes.py`): tensorstore raises its statuses as `ValueError` too.
STATUS_VALUE_CARRIERS = frozenset({"ValueError"})
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
# Where a wrapped status may start: the message's start, a line's start, after `: ` or `; `, and
# after the op an MLIR diagnostic names (`'tpu.matmul' op <message>`, catalog/mlir.py).
_SEGMENT = re.compile(r"(?:^|\n|: |; |'[\w.$]+' op )")
MAX_SEGMENTS = 40
_LINE = re.compile(r"\n[ \t]*")


# What a status code says and what to check, for the generated messages no curated entry explains
# (shared by thousands of entries: one tuple each).
_COMMON = (
    "Read the log lines printed above the traceback (`TF_CPP_MIN_LOG_LEVEL=0` shows them): XLA's "
    "C++ logs the cause there.",
    "Check that jax, jaxlib and any plugin (`jax-cuda12-plugin`, libtpu) are the same release: "
    '`python -c "import jax; jax.print_environment_info()"`.',
)
STATUS_ADVICE: dict[str, tuple[str, tuple[str, ...]]] = {
    "INTERNAL": (
        "XLA or jaxlib reported an internal failure while compiling or running the program: a "
        "GPU/TPU library or driver call failed, or XLA hit a case it does not handle.",
        (
            *_COMMON,
            "If it persists with matching releases, report it to jax-ml/jax with a small "
            "program and `XLA_FLAGS=--xla_dump_to=/tmp/dump`.",
        ),
    ),
    "INVALID_ARGUMENT": (
        "XLA rejected what it was given: an operand, shape, sharding, layout or option that "
        "the backend does not accept, often from a custom call, an FFI target or a plugin.",
        (
            "Compare the shapes, dtypes and shardings the message names with what the program "
            "passes.",
            *_COMMON,
        ),
    ),
    "RESOURCE_EXHAUSTED": (
        "A device or host resource ran out, usually memory.",
        (
            "Reduce the batch or model size, or set `XLA_PYTHON_CLIENT_PREALLOCATE=false` / a "
            "lower `XLA_PYTHON_CLIENT_MEM_FRACTION` when several processes share a GPU.",
            *_COMMON,
        ),
    ),
    "UNIMPLEMENTED": (
        "The backend (CPU, GPU, TPU or a plugin) does not implement this operation, dtype or "
        "feature.",
        (
            "Run the operation on another backend or dtype, or upgrade jax/jaxlib and the plugin.",
            *_COMMON,
        ),
    ),
    "FAILED_PRECONDITION": (
        "The system was not in a state the operation needs: a device, library or earlier "
        "step that should be ready is not.",
        _COMMON,
    ),
}


def advice(code: str) -> tuple[str, tuple[str, ...]]:
    """What a status code means and what to check ("" and the common checks when unknown)."""
    return STATUS_ADVICE.get(code, ("", _COMMON))


def runtime_class(cls: str, message: str) -> str:
    """The class a status is carried by: `ValueError` with a status heading its message is
    XLA's runtime class (`STATUS_VALUE_CARRIERS`); any other class is itself."""
    if cls in STATUS_VALUE_CARRIERS and STATUS_PREFIX.match(message.lstrip()):
        return EXCEPTION
    return cls


def looks_like_status(message: str, wrapped: bool = True) -> bool:
    """The message carries an XLA status (`INTERNAL: ...`, `Resource exhausted: ...`) at its
    start, where a line begins (a log line) or, when `wrapped`, where a wrapped text begins
    (`Unable to initialize backend 'cuda': INVALID_ARGUMENT: ...`). Text whose class was not
    copied is searched at line starts only: a traceback's `XlaRuntimeError: INTERNAL: ...` line
    is read with its class."""
    lines = [0, *(found.end() for found in _LINE.finditer(message))]
    starts = segment_starts(message) if wrapped else lines
    return any(STATUS_PREFIX.match(message, start) for start in starts)


def segment_starts(message: str) -> list[int]:
    """Positions in the message where a (wrapped) status text may begin, and where the text of
    each C++ log line begins (past its `file.cc:123] ` header)."""
    starts = sorted({found.end() for found in _SEGMENT.finditer(message)})[:MAX_SEGMENTS]
    return sorted({*starts, *header_starts(message)})


def family_status(message: str) -> str | None:
    """The status a text is written for as a whole (`INTERNAL: {detail}` -> "INTERNAL", older
    releases' `Internal: {detail}` too; "" for a placeholder only), or None: the text of one
    error. Such a text names no error by its words: the class and the status name it when
    nothing else matches (`catalog/classes.py`)."""
    literal = " ".join(PLACEHOLDER.sub(" ", message).split())
    if not literal:
        return ""
    code = literal.rstrip(":").upper().replace(" ", "_")
    return code if literal.endswith(":") and code in STATUS_CODES else None


def strip_status(template: str) -> str:
    """`INTERNAL: text` -> `text` (the body a wrapped message repeats)."""
    found = STATUS_PREFIX.match(template)
    return template[found.end() :] if found else template


def pinned_commit(site: Site) -> tuple[str, str] | None:
    """(repository, commit) of a site below JAX's Python (`jax = "openxla/xla@3b8c752..."`),
    else None (a JAX release)."""
    repo, at, commit = site.jax.partition("@")
    return (repo, commit) if at and "/" in repo and commit else None


def commit_link(site: Site) -> str:
    """The C++ source at the commit the line number belongs to ("" for a JAX release)."""
    pinned = pinned_commit(site)
    if pinned is None:
        return ""
    return f"https://github.com/{pinned[0]}/blob/{pinned[1]}/{site.file}#L{site.line}"


def site_label(site: Site) -> str:
    """`openxla/xla 3b8c752b51ea` for a C++ site, `JAX 0.10.2` for one of JAX's Python."""
    pinned = pinned_commit(site)
    return f"{pinned[0]} {pinned[1][:12]}" if pinned else f"JAX {site.jax}"


def generated_site(raw: dict[str, object], sources: list[dict[str, str]]) -> Site | None:
    number, file, line = raw.get("source"), raw.get("file"), raw.get("line")
    if not isinstance(number, int) or not 0 <= number < len(sources):
        return None
    if not isinstance(file, str) or not isinstance(line, int) or line < 1:
        return None
    source = sources[number]
    # A site read from a folder of single files carries the commit its file was read at.
    own = raw.get("commit")
    commit = own if isinstance(own, str) and own else source.get("commit", "")
    repo = source.get("repo", "")
    where = f"{repo}@{commit}" if repo and commit else source.get("name", "xla")
    function = raw.get("function")
    # One string per file, function and source for the ~40,000 sites (the server keeps them).
    return Site(
        file=sys.intern(file),
        line=line,
        function=sys.intern(str(function or "<file scope>")),
        jax=sys.intern(where),
    )


def generated_sites(raw: dict[str, object], sources: list[dict[str, str]]) -> tuple[Site, ...]:
    """A generated record's sites, one per file and function, the first given (the sources are
    newest first): the same code in several snapshots, at other lines, says nothing more."""
    seen: set[tuple[str, str]] = set()
    kept: list[Site] = []
    listed = raw.get("sites")
    for item in listed if isinstance(listed, list) else []:
        site = generated_site(item, sources) if isinstance(item, dict) else None
        if site is not None and (site.file, site.function) not in seen:
            seen.add((site.file, site.function))
            kept.append(site)
    return tuple(kept)


def read_generated(path: Path) -> tuple[list[object], list[dict[str, str]], str]:
    """The records and sources of a file the C++ extractors write (`messages.json.gz`,
    `mlir.json.gz`), or the problem that kept it from being read."""
    label = f"catalog/xla/{path.name}"
    try:
        data = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, EOFError) as exc:
        return [], [], f"{label}: not readable JSON: {exc}"
    if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
        return [], [], f"{label}: no 'messages' list"
    sources = [s for s in data.get("sources", []) if isinstance(s, dict)]
    return data["messages"], sources, ""


def load_xla(path: Path) -> tuple[list[Entry], list[str]]:
    """The generated entries of `catalog/xla/messages.json.gz`, and problems met reading it."""
    label = f"catalog/xla/{path.name}"
    records, sources, problem = read_generated(path)
    if problem:
        return [], [problem]
    entries: list[Entry] = []
    problems: list[str] = []
    for number, raw in enumerate(records):
        if not isinstance(raw, dict):
            problems.append(f"{label}: message #{number}: not an object")
            continue
        kind, code, text, entry_id = (raw.get(k) for k in ("kind", "code", "message", "id"))
        if not all(isinstance(v, str) and v for v in (kind, code, text, entry_id)):
            problems.append(f"{label}: message #{number}: needs id, kind, code and message")
            continue
        assert isinstance(code, str) and isinstance(text, str) and isinstance(entry_id, str)
        status = kind == "status"
        log = kind == "log"  # `code` is the severity: ERROR, WARNING, FATAL, INFO
        message = f"{code}: {text}" if status else text
        sites = generated_sites(raw, sources)
        meaning, solutions = advice(code) if status else ("", ())
        if log:
            meaning, solutions = SEVERITY_MEANING.get(code, ""), SEVERITY_SOLUTIONS
        entries.append(
            Entry(
                id=entry_id,
                exception=EXCEPTION if status else LOG_CLASS if log else code,
                message=message,
                title=severity_title(code, message) if log else message.split("\n", 1)[0][:80],
                curated=False,
                raised_at=sites,
                library=LIBRARY,
                meaning=meaning,
                solutions=solutions,
            )
        )
    # Pallas's compilers' MLIR diagnostics, generated beside it (catalog/mlir.py).
    from jaxerr_ls.catalog.mlir import INDEX, load_mlir

    if path.with_name(INDEX).exists():
        more, more_problems = load_mlir(path.with_name(INDEX), LIBRARY)
        entries.extend(more)
        problems.extend(more_problems)
    return entries, problems
