"""Log messages in C++ source (XLA, jaxlib, the TensorFlow-era stream executor), read as text.

What users paste from a GPU or TPU failure is often not an exception but a glog line:
`E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Could not create cudnn handle: ...`.
Such a line is built by streaming pieces into a logging macro:
`LOG(ERROR) << "Could not create cudnn handle: " << ToString(status);`. This module finds the
macros whose stream holds a literal text and turns the stream into a template in the catalog's
form (literal pieces kept, every other piece a `{name}` placeholder), with the severity.

Severity: `LOG(ERROR|WARNING|FATAL)`, `LOG_FIRST_N`, `LOG_EVERY_N*`, `LOG_IF*`, `PLOG` and their
`ABSL_` spellings; `CHECK*`/`QCHECK*` with a streamed message are FATAL (glog prints `Check
failed: <condition> ` before the message and ends the process). `VLOG` and `DCHECK` are skipped:
VLOG prints only when a developer raises the verbosity and DCHECK only in debug builds, so no
user sees them. `LOG(INFO)` is kept only when its text says something went wrong or what to do
(a failure, a fallback, a missing or unsupported piece): TensorFlow-era jaxlib printed INFO by
default, and users paste those lines beside their error, but the hundreds of progress lines
(`XLA service ... initialized`) would explain nothing.
"""

from __future__ import annotations

import re

from jaxerr_ls.extract.cpp import (
    _balanced,
    _Namer,
    enclosing_function,
    render,
    stream_operands,
    worth_keeping,
)

# The severity names the macros take, as glog prints their first letter.
SEVERITIES = {"INFO": "INFO", "WARNING": "WARNING", "ERROR": "ERROR", "FATAL": "FATAL"}
_SEVERITY_ARG = re.compile(
    r"\s*(?:absl::(?:LogSeverity::k)?|google::(?:GLOG_)?|tsl::|tensorflow::)?"
    r"(?:GLOG_)?(?P<sev>INFO|WARNING|ERROR|FATAL|QFATAL|DFATAL|kInfo|kWarning|kError|kFatal)\b"
)
_MACRO = re.compile(
    r"(?<![\w:])(?:ABSL_)?(?:"
    r"(?P<log>P?LOG(?:_FIRST_N|_EVERY_N(?:_SEC)?|_EVERY_POW_2|_IF(?:_EVERY_N)?)?)"
    r"|(?P<check>Q?CHECK(?:_EQ|_NE|_LT|_LE|_GT|_GE|_OK|_NOTNULL)?)"
    r")\s*\("
)
# INFO lines worth a catalog entry: they report a failure, a fallback, or something missing.
_INFO_WORTH = re.compile(
    r"\b(?:fail\w*|error|cannot|can't|could not|couldn't|unable|not (?:found|supported|available|"
    r"set|enabled)|unsupported|fall(?:ing)? back|fallback|missing|too old|older than|deprecated|"
    r"disabled|retry\w*|out of memory|exceed\w*|timed? ?out)\b",
    re.IGNORECASE,
)
# Pieces that end or decorate a stream and print nothing a user could match.
_SILENT = re.compile(r"^(?:std::)?(?:endl|flush)$")
# `#Name` inside a macro body: the preprocessor writes the argument's spelling there.
_STRINGIZE = re.compile(r"^#\s*(?P<name>[A-Za-z_]\w*)$")


def _stream(code: str, start: int) -> tuple[list[str], int] | None:
    """The `<< a << b` pieces after position `start` (just past the macro's parentheses), up to
    the `;` that ends the statement, or None when no `<<` follows."""
    operands, end = stream_operands(code, start)
    if len(operands) < 2 or operands[0]:
        return None
    return [piece for piece in operands[1:] if piece], end


def _render_stream(pieces: list[str], namer: _Namer) -> str:
    out = []
    for piece in pieces:
        if _SILENT.match(piece):
            continue
        stringized = _STRINGIZE.match(piece)
        if stringized:
            out.append(namer(stringized.group("name")))
            continue
        # `#FnName " not available"`: a stringized argument glued to a literal.
        glued = re.match(r"^#\s*(?P<name>[A-Za-z_]\w*)\s+(?P<rest>\".*)$", piece, re.DOTALL)
        if glued:
            out.append(namer(glued.group("name")) + render(glued.group("rest"), namer))
            continue
        out.append(render(piece, namer))
    return "".join(out)


def log_messages(text: str, code: str) -> list[tuple[str, str, int, str]]:
    """(severity, template, line, function) of every log macro streaming a literal text.
    `code` is `text` with comments blanked (`cpp.blank_comments`)."""
    found: list[tuple[str, str, int, str]] = []
    for macro in _MACRO.finditer(code):
        end = _balanced(code, macro.end())
        if end is None:
            continue
        inside = code[macro.end() : end - 1]
        if macro.group("log"):
            severity_arg = _SEVERITY_ARG.match(inside)
            if severity_arg is None:
                continue
            raw = severity_arg.group("sev").lstrip("k").upper()
            severity = "FATAL" if raw.endswith("FATAL") else SEVERITIES.get(raw, "")
            prefix = ""
        else:
            severity, prefix = "FATAL", "Check failed: {condition} "
        stream = _stream(code, end)
        if stream is None or not severity:
            continue
        pieces, _ = stream
        if not any('"' in p for p in pieces):
            continue  # nothing literal: `LOG(ERROR) << status;`
        namer = _Namer()
        if prefix:
            namer.used.add("condition")
        body = _render_stream(pieces, namer).strip()
        if not body or not worth_keeping(body):
            continue
        if severity == "INFO" and not _INFO_WORTH.search(re.sub(r"\{[^{}]*\}", " ", body)):
            continue
        line = code.count("\n", 0, macro.start()) + 1
        found.append((severity, prefix + body, line, enclosing_function(code, macro.start())))
    return found
