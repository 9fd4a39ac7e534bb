"""Log lines of XLA's and jaxlib's C++ (glog / absl / TensorFlow's logging), as users paste them.

A GPU or TPU failure often reaches the user as a log line rather than an exception:

    E1012 10:15:02.481234  4242 cuda_dnn.cc:535] Could not create cudnn handle: ...
    2022-06-28 19:26:35.110279: W external/.../asm_compiler.cc:111] *** WARNING *** ...
    F external/org_tensorflow/tensorflow/core/tpu/tpu_executor_init_fns.inc:110] TpuTransfer...

The header names the severity and the C++ file that logged it; the text after `] ` is what the
code streamed into `LOG(...)` (`jaxerr_ls.extract.cpp_log`). The generated log entries are
matched where such a text starts, and the file in the header picks, among entries of the same
text, the one logged by that file.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from jaxerr_ls.catalog.model import Entry

# glog: `E1012 10:15:02.481234  4242 file.cc:535] `; TensorFlow: `2022-06-28 19:26:35.110279: W
# path/file.cc:111] `; the bare `E path/file.cc:439] ` once a reader dropped the time; a file and
# line alone where a paste starts mid-line. The path may be a markdown link (VS Code notebooks
# print `external[/xla/.../cuda_dnn.cc:429](https://...cuda_dnn.cc:429)] `). absl's Python logging
# prints the same header with a `.py` file (`W0312 14:30:01.290431 79324 xla_bridge.py:758] `).
# Python's own logging prints `LEVEL:logger:` (`WARNING:absl:`, `ERROR:jax._src.xla_bridge:`),
# and JAX's handler `LEVEL:date time,ms:logger:line: `.
LOG_HEADER = re.compile(
    r"(?m)^[ \t]*(?:"
    r"(?:\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?:? )?"
    # vLLM's (and tpu-inference's) logger: `ERROR 04-30 01:11:39 [core.py:1136] `.
    r"(?:(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d \[)?"
    # absl's seconds are the epoch's before `absl::InitializeLog()` (`F0000 00:00:1786847891.5 `).
    r"(?:(?P<severity>[IWEF])(?:\d{4} \d\d:\d\d:\d+\.\d+ +\d+ | ?))?"
    r"\S{0,400}?(?P<file>[\w.-]+\.(?:cc|h|inc|cpp|cu|py)):(?P<line>\d+)\)?\] "
    r"|(?P<level>WARNING|ERROR|CRITICAL|INFO):(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+:)?"
    r"(?P<logger>[A-Za-z_][\w.]*):(?:(?P<logged_line>\d+): ?)?"
    r")"
)
MAX_HEADERS = 40
SEVERITY_NAMES = {"I": "INFO", "W": "WARNING", "E": "ERROR", "F": "FATAL"}
# Python's level names, as the letter absl and glog print.
_LEVEL_LETTERS = {"INFO": "I", "WARNING": "W", "ERROR": "E", "CRITICAL": "F"}

# What each severity means for the user reading the line.
SEVERITY_MEANING = {
    "FATAL": (
        "XLA's C++ logged this FATAL message and then aborted the process: a FATAL log (`F ...]`, "
        "or a failed `CHECK`) ends the program on the spot, so no Python exception follows; what "
        "comes after it in the output is the C++ stack glog prints."
    ),
    "ERROR": (
        "XLA's C++ logged this error. The program may still fail with an exception printed after "
        "it: that exception is what failed, this line usually says why."
    ),
    "WARNING": (
        "XLA's C++ logged this warning; the program goes on. It matters when results are wrong or "
        "a later error follows."
    ),
    "INFO": "XLA's C++ logged this note; the program goes on.",
}
SEVERITY_SOLUTIONS = (
    "Read the exception printed after the log lines, if any: it is what failed (`jaxerr-ls "
    "explain` explains it when the whole output is pasted).",
    "Check that jax, jaxlib and any plugin (`jax-cuda12-plugin`, libtpu) are the same release: "
    '`python -c "import jax; jax.print_environment_info()"`.',
)


def header_starts(text: str) -> list[int]:
    """Where the message of each log line starts (just past its header's `] `)."""
    return [found.end() for found in LOG_HEADER.finditer(text)][:MAX_HEADERS]


def header_file(text: str, start: int) -> str | None:
    """The file name (basename) of the log header that ends at `start`, or None."""
    line_start = text.rfind("\n", 0, start) + 1
    found = LOG_HEADER.match(text, line_start)
    if found is None or found.end() != start:
        return None
    return logging_file(found)


def header_severity(found: re.Match[str]) -> str:
    """The header's severity as glog's letter (`W`), "" when it names none."""
    return found["severity"] or _LEVEL_LETTERS.get(found["level"] or "", "")


def logging_file(found: re.Match[str]) -> str | None:
    """The basename of the file that logged, as the header names it: glog's and absl's file, or
    the module a Python logger is named after (`jax._src.xla_bridge` -> `xla_bridge.py`; `absl`
    and `root` name none)."""
    if found["file"]:
        return found["file"]
    logger = found["logger"] or ""
    return logger.rsplit(".", 1)[-1] + ".py" if "." in logger else None


def past_python_log_header(text: str) -> str | None:
    """The text after the Python log header it starts with, or None when it starts with none
    (or with a C++ log's header, whose text the runtime templates read where it starts)."""
    found = LOG_HEADER.match(text)
    if found is None or not (found["level"] or (found["file"] or "").endswith(".py")):
        return None
    return text[found.end() :].strip() or None


def header_line(found: re.Match[str]) -> int | None:
    line = found["line"] or found["logged_line"]
    return int(line) if line else None


def log_language(entry: Entry) -> str:
    """Which code logs the entry's text: "Python" (`logger.warning(...)`) or "C++"."""
    python = entry.raised_at and all(site.file.endswith(".py") for site in entry.raised_at)
    return "Python" if python else "C++"


def is_generated_log(entry: Entry) -> bool:
    return entry.logs and not entry.curated


def logged_by(entry: Entry, file: str) -> bool:
    """One of the places that log the entry's text is in the file the header names."""
    return any(PurePosixPath(site.file).name == file for site in entry.raised_at)


def severity_title(severity: str, message: str) -> str:
    return f"{severity} log: {message.split(chr(10), 1)[0]}"[:80]


def logged_severity(entry: Entry) -> str:
    """The severity (`ERROR`, ...) a generated log entry's text is logged at, as
    `severity_title` wrote it; "" for any other entry."""
    head = entry.title.split(" log: ", 1)[0]
    return head if is_generated_log(entry) and head in SEVERITY_NAMES.values() else ""
