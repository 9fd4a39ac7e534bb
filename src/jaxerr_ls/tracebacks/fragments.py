"""Text short of a whole traceback: what users paste when they do not copy everything.

Tried only when the text holds no traceback the dialects can read:

- text escaped as in a JSON string (a message copied out of a JSON log: literal `\\n`, doubled
  `\\\\` in Windows paths) is unescaped and parsed again;
- VS Code's "copy" of a notebook error (`{"name", "message", "stack"}`) whose stack holds no
  traceback gives its class and message;
- pytest `E   ` lines pasted without their section are unprefixed and parsed again;
- otherwise the last exception line (`Class: message`, possibly after a log prefix) and the lines
  after it, with hard-wrapped lines rejoined;
- otherwise the whole text as a message without its class (`exception == ""`), which only a
  catalog match can confirm (see `jaxerr_ls.catalog.loose`).

Everything is linear in the text; nothing here raises.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

from jaxerr_ls.tracebacks.dialects.common import ABSL_HEADER, CARRIER, separator
from jaxerr_ls.tracebacks.dialects.cpython import FRAME
from jaxerr_ls.tracebacks.model import Frame, Traceback

# A class name that reads as an exception, anywhere in a line (after a log prefix, `E   `, ...);
# or a class of the JAX stack printed with its module whose name says nothing of it
# (`jax._src.export.shape_poly.InconclusiveDimensionOperation: ...`), but not JAX's notes that
# head the real error (`jax.errors.SimplifiedTraceback: For simplicity, ...`).
_EXCEPTION = re.compile(
    r"(?<![\w.])(?P<cls>(?:[A-Za-z_]\w*\.(?:<locals>\.)?)*(?:[A-Za-z_]\w*)?"
    r"(?:Error|Exception|Interrupt|Exit|Warning|Group|Iteration"
    # The JAX stack's classes whose names end in none of those words (every one the catalog
    # holds: tests/tracebacks/test_fragment_classes.py).
    r"|InconclusiveDimensionOperation|UnexpectedDimVar|UndefinedPoly|ScopeCollectionNotFound)"
    r"|(?:jax|jaxlib|flax|equinox|optax|orbax|chex|haiku)(?:\.[a-z_]\w*)+\."
    r"(?!(?:Simplified|Unfiltered|Filtered)(?:Traceback|StackTrace)\b)[A-Z][A-Za-z]+)"
    r"(?::(?P<msg>.*))?$"
)
# Markdown bold around the class (`**flax.errors.X:** message`): the `**` after the colon.
_BOLD_CLOSE = "**"
# `E   ` / `E       ` of pytest reports, on a run of lines.
_E_PREFIX = re.compile(r"^E(?: {1,12}|$)")
# JSON string escapes (the ones `json.dumps` writes).
# (and Python's `\'`, which a repr writes and JSON never does).
_ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|["\'\\/bfnrt])')
# pytest's short test summary: one line per test, cut at the terminal's width by pytest itself.
_SUMMARY = ("FAILED ", "ERROR ")
_PYTEST_RULE = re.compile(r"^(?:=+|_+) .* (?:=+|_+)$")
# An exception printed for a repr: `<[SomeError('...') raised in repr()] X object at 0x...>`.
_IN_REPR = re.compile(
    r"\[(?P<cls>[A-Za-z_][\w.]*)\((?P<quote>['\"])(?P<msg>.*?)(?P=quote)\) raised in repr\(\)\]"
)
# A paste that is an exception's repr (`print(repr(e))`, a log's `%r`): `ValueError("...")`, its
# message escaped on one line (a line break in it is a terminal's wrap), maybe cut before its end.
_EXCEPTION_REPR = re.compile(
    r"\A\s*(?P<cls>[A-Za-z_][\w.]*(?:Error|Exception))\((?P<quote>['\"])"
    r"(?P<msg>(?:\\.|(?!(?P=quote)).)*)(?:(?P=quote)\)\s*\Z|\Z)",
    re.DOTALL,
)
# Python prints a warning as `path:line: Category: message` then `  <the source line>`.
_WARNING_AT = re.compile(r"(?P<path>\S(?:.*\S)?):(?P<line>\d+): $")
_SOURCE_LINE = re.compile(r"^  \S")
# A message longer than this is not a paste of a message.
MAX_FRAGMENT = 20_000
# Terminal widths that hard-wrap long lines (plus whatever width the text itself shows).
_MIN_WRAP = 60


def looks_escaped(text: str) -> bool:
    """One line (or a quoted string) with `\\n` escapes: a JSON string copied as it was stored."""
    stripped = text.strip()
    if "\\n" not in stripped:
        return False
    return "\n" not in stripped or (stripped[:1] == stripped[-1:] == '"')


def unescape(text: str) -> str:
    """Undo JSON string escapes; a quoted string is decoded by JSON itself when it is valid."""
    stripped = text.strip()
    if stripped[:1] == stripped[-1:] == '"' and len(stripped) > 1:
        try:
            value = json.loads(stripped)
        except ValueError:
            stripped = stripped[1:-1]
        else:
            if isinstance(value, str):
                return value
    return _ESCAPE.sub(_decode, stripped)


def _decode(found: re.Match[str]) -> str:
    token = found.group(0)
    if token[1] == "u":
        return chr(int(token[2:], 16))
    return {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(token[1], token[1])


def _json_object(text: str) -> dict[str, object] | None:
    """The text as one JSON object, or None."""
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def json_error(text: str) -> Traceback | None:
    """VS Code's notebook error copy, or any JSON object naming an error and its message."""
    data = _json_object(text)
    if data is None:
        return None
    name, message = data.get("name") or data.get("ename"), data.get("message", data.get("evalue"))
    if isinstance(name, str) and isinstance(message, str) and name.strip():
        return Traceback(name.strip(), message.strip())
    return None


# VS Code's notebook error copy cut before its end: its name and (maybe cut) message; the copy
# may also start after its opening brace (tensorflow#62828's paste starts at `"name": `).
_CUT_COPY = re.compile(
    r'\A\s*\{?\s*"name":\s*"(?P<name>(?:[^"\\\n]|\\.){1,200})",\s*'
    r'"message":\s*"(?P<message>(?:[^"\\]|\\.)*)'
)


def cut_json_error(text: str) -> Traceback | None:
    """VS Code's error copy (`{"name": ..., "message": ...`) that stops before it closes
    (jax#24939's paste, cut inside the message), or was copied from its first key on."""
    found = _CUT_COPY.match(text[:MAX_FRAGMENT])
    if found is None or not found["name"].strip():
        return None
    return Traceback(found["name"].strip(), unescape(found["message"]).strip())


def json_strings(text: str) -> str | None:
    """A JSON log record: its string values that mention an error, one after the other."""
    data = _json_object(text)
    if data is None:
        return None
    found = [
        value
        for value in data.values()
        if isinstance(value, str) and ("Traceback" in value or _has_exception_line(value))
    ]
    return "\n".join(found) if found else None


def _has_exception_line(text: str) -> bool:
    return any(_EXCEPTION.search(line) for line in text.split("\n"))


def strip_e_prefix(lines: list[str]) -> list[str] | None:
    """pytest's `E` lines without their section: the lines after `E`, dedented together."""
    marked = [line for line in lines if _E_PREFIX.match(line)]
    if len(marked) < 1 or not any(_EXCEPTION.search(line) for line in marked):
        return None
    bodies = [line[1:] for line in marked]
    indent = min((len(b) - len(b.lstrip(" ")) for b in bodies if b.strip()), default=0)
    return [b[indent:] for b in bodies]


# A log record's start: absl's header, or TensorFlow's dated one (`2022-06-12 23:52:23.958841: W `).
_LOG_RECORD = re.compile(rf"{ABSL_HEADER}|\d{{4}}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?:? [IWEF] ")


def rejoin_wrapped(lines: list[str]) -> list[str]:
    """Lines cut at the terminal's width are joined to the line after them.

    The width is the longest line's length when at least two lines before the last have exactly
    that length (a wrap leaves every cut line equally long, and the last line is what remains: a
    two-line message whose lines are equally long by chance is no wrap); lines that are not cut
    keep their ends."""
    lengths = [len(line) for line in lines]
    while lengths and not lengths[-1]:
        lengths.pop()
    if not lengths:
        return lines
    width = max(lengths)
    if width < _MIN_WRAP or lengths[:-1].count(width) < 2:
        return lines
    out: list[str] = []
    joining = False
    for line in lines:
        # pytest fills the terminal's width itself: its rules (`==== 2 failed ====`) and its
        # summary lines, which it cuts with `...`, are whole lines.
        whole = line.startswith(_SUMMARY) or _PYTEST_RULE.match(line) is not None
        whole = whole or line.startswith("Traceback (most recent call last)")
        # A log record's header starts a record of its own: ten equal records are equally long
        # (jax#33403's `You have to use Shardy for RaggedDot` warnings), not a wrapped message.
        if joining and not whole and not _LOG_RECORD.match(line):
            out[-1] += line
        else:
            out.append(line)
        joining = len(line) == width and not whole
    return out


def summary_errors(lines: list[str]) -> list[Traceback]:
    """The distinct errors of pytest's short test summary, in order: one per `FAILED test -
    Class: message` line (a test suite's run pastes several, each its own failure)."""
    found: list[Traceback] = []
    for line in lines:
        stripped = line.lstrip()
        if not stripped.startswith(_SUMMARY) or " - " not in stripped:
            continue
        error = _EXCEPTION.match(stripped.split(" - ", 1)[1])
        if error is None or error.group("msg") is None:
            continue
        read = Traceback(error.group("cls"), error.group("msg").removeprefix(" "))
        if not any(_same_failure(read, seen) for seen in found):
            found.append(read)
    return found


def _same_failure(one: Traceback, other: Traceback) -> bool:
    """The same error on two summary lines, each cut by pytest where its line ends (`...`)."""
    if one.exception != other.exception:
        return False
    a, b = one.message.removesuffix("..."), other.message.removesuffix("...")
    return a.startswith(b) or b.startswith(a)


def repr_error(text: str) -> Traceback | None:
    """An exception a library printed instead of an object's repr (its message escaped)."""
    found = _IN_REPR.search(text[:MAX_FRAGMENT])
    if found is None:
        return None
    return Traceback(found.group("cls"), unescape(found.group("msg")))


def exception_repr(text: str) -> Traceback | None:
    """A paste that is one exception's repr: `ValueError("User-provided restore item ...\\n...")`
    (efppo#8), read as its class and unescaped message."""
    found = _EXCEPTION_REPR.match(text[:MAX_FRAGMENT])
    if found is None:
        return None
    return Traceback(found["cls"], unescape(found["msg"].replace("\n", "")))


def repr_in_message(traceback: Traceback) -> Traceback:
    """A bare `Exception` whose message is another exception's repr in quotes, as dask's workers
    log a task's failure (`Exception: 'TracerArrayConversionError("The numpy.ndarray ...`,
    tn4ml#4): that exception, its message unescaped twice (the quotes' then the repr's)."""
    if traceback.exception.rsplit(".", 1)[-1] != "Exception":
        return traceback
    text = traceback.message.strip()
    if text[:1] in "'\"" and text[:1]:
        text = unescape(text[1:].removesuffix(text[0]))
    inner = exception_repr(text)
    if inner is None:
        return traceback
    return replace(traceback, exception=inner.exception, message=inner.message)


_COMMENT = re.compile(r"^\s*#+\s*")


def commented_exception(lines: list[str]) -> Traceback | None:
    """A paste that opens with the error written as a comment (`# ValueError: Non-hashable
    static arguments ...`, then the rest of its message, jax#10044): that exception, with the
    lines after it."""
    return _opening_exception(lines, commented=True)


def opening_exception(lines: list[str]) -> Traceback | None:
    """The exception line a paste opens with, the rest of the text its message (jax#13409: the
    error, then the warnings and output the user copied after it)."""
    return _opening_exception(lines, commented=False)


def _opening_exception(lines: list[str], *, commented: bool) -> Traceback | None:
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return None
    start = 0
    if commented:
        comment = _COMMENT.match(lines[first])
        if comment is None:
            return None
        start = comment.end()
    found = _EXCEPTION.match(lines[first], start)
    if found is None or found.group("msg") is None:
        return None
    message = "\n".join([found.group("msg").removeprefix(" "), *lines[first + 1 :]])
    return Traceback(found.group("cls"), message.strip("\n"))


def exception_fragment(lines: list[str]) -> tuple[Traceback, int] | None:
    """The last line naming an exception, and the lines after it as the rest of its message;
    with the index of that line. An exception line a message quotes ("The error was:" then
    `TypeError: ...`) is part of an earlier exception's message when one heads the text."""
    for index in range(len(lines) - 1, -1, -1):
        found = _EXCEPTION.search(lines[index])
        if found is None:
            continue
        if found.group("msg") is None and lines[index].strip() != found.group("cls"):
            continue  # a bare class name counts only as a line of its own (`AssertionError`)
        if index > 0 and _EXCEPTION.search(lines[index - 1]) and lines[index].startswith(" "):
            continue  # an indented continuation that happens to name a class
        if _quoted(lines, index) or _in_carried_traceback(lines, index):
            continue
        text = (found.group("msg") or "").removeprefix(" ")
        if text.startswith(_BOLD_CLOSE) and lines[index][: found.start()].endswith("*"):
            text = text.removeprefix(_BOLD_CLOSE).removeprefix(" ")
        # pytest's summary prints one line per test: what follows is another test or its footer.
        summary = lines[index].lstrip().startswith(_SUMMARY)
        message = [text] if summary else [text, *lines[index + 1 :]]
        while len(message) > 1 and not message[-1].strip():
            message.pop()
        frames: tuple[Frame, ...] = ()
        warned = _WARNING_AT.match(lines[index][: found.start()].lstrip())
        source = next((i for i, line in enumerate(message) if _SOURCE_LINE.match(line)), None)
        if warned and source is not None:
            # Python prints a warning as its message, then the line that warned: what follows
            # is the program's output (mpx#11: a log's error line), not the warning's.
            del message[source + 1 :]
        if warned and _SOURCE_LINE.match(message[-1]):
            # Python's `path:line: FooWarning: msg` ends with the line that warned: where the
            # warning points (the user's line, when the warning's stack level reaches it).
            frames = (Frame(warned["path"], int(warned["line"]), "", message.pop().strip()),)
        elif warned:
            frames = (Frame(warned["path"], int(warned["line"])),)
        # A stack printed after a warning's line (`traceback.print_stack()`, absl's handler).
        stack = next((i for i, line in enumerate(message) if i and FRAME.match(line)), None)
        carried = any("Traceback (most recent call last)" in line for line in message)
        if stack is not None and not frames and not carried:
            # The message ends where a printed stack begins (mctx#97's FutureWarning); a
            # message that carries a traceback (`CpuCallback error: Traceback ...`) keeps it.
            message, frames = message[:stack], _stack_frames(message[stack:])
        cls, text = found.group("cls"), "\n".join(message).strip("\n")
        return Traceback(cls, text, frames), index
    return None


def _stack_frames(lines: list[str]) -> tuple[Frame, ...]:
    """`File "...", line N, in f` lines with the source line each is followed by."""
    frames: list[Frame] = []
    for index, line in enumerate(lines):
        found = FRAME.match(line)
        if found is None:
            continue
        after = lines[index + 1].strip() if index + 1 < len(lines) else ""
        source = "" if FRAME.match(after) else after
        function = found.groupdict().get("func") or ""
        frames.append(Frame(found["path"], int(found["line"]), function, source))
    return tuple(frames)


def _quoted(lines: list[str], index: int) -> bool:
    """The exception line at `index` follows a line ending in `:` (not a chain separator) and an
    earlier line starts with an exception: it is quoted inside that exception's message."""
    before = next((line for line in reversed(lines[:index]) if line.strip()), "")
    if not before.rstrip().endswith(":") or separator(before):
        return False
    for line in lines[:index]:
        found = _EXCEPTION.search(line)
        if found is not None and found.start() == len(line) - len(line.lstrip()):
            return True
    return False


def _in_carried_traceback(lines: list[str], index: int) -> bool:
    """The exception line at `index` ends a traceback that an earlier exception's message
    carries (`XlaRuntimeError: INTERNAL: ... CpuCallback error: Traceback (most recent call
    last):`, its frames, then the callback's `RuntimeError: ...`, pymc#7593): that earlier
    exception is the error."""
    above = index - 1
    while above >= 0 and lines[above].startswith((" ", "\t")):
        above -= 1
    return 0 <= above < index - 1 and CARRIER.match(lines[above]) is not None


def message_fragment(lines: list[str]) -> Traceback | None:
    """The whole text as a message whose class was not copied."""
    text = "\n".join(line.strip() for line in lines).strip()
    if not text or len(text) > MAX_FRAGMENT:
        return None
    return Traceback("", text)


def commented_message(lines: list[str]) -> Traceback | None:
    """A message without its class written as comments, every line of the text one
    (`# jax.experimental.shard_map is deprecated. Use jax.shard_map instead.`, haliax#229)."""
    filled = [line for line in lines if line.strip()]
    if not filled or not all(_COMMENT.match(line) for line in filled):
        return None
    return message_fragment([_COMMENT.sub("", line, count=1) for line in filled])


def first_line_fragment(lines: list[str]) -> Traceback | None:
    """The text's first line alone as a message without its class, when more lines follow: what
    follows may be another release's continuation of the message, or the program's output
    (`UNAVAILABLE: No PTX compilation provider ...` then `Driver compilation is enabled: 0`)."""
    filled = [line.strip() for line in lines if line.strip()]
    if len(filled) < 2 or len(filled[0]) > MAX_FRAGMENT:
        return None
    return Traceback("", filled[0])


# Python's logging at its default format (`ERROR:absl:text`, `ERROR:root:text`), JAX's logger
# (`ERROR:2025-05-09 17:39:42,537:jax._src.callback:102: text`) and a program's own `ERROR: text`.
_LOGGED = re.compile(
    r"^(?:ERROR|CRITICAL|FATAL|WARNING)"
    r"(?::(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+|[A-Za-z_][\w.]*|\d+))*"
    # JAX's logger since 0.6: `ERROR:2025-07-08 12:39:34,990 jax._src.xla_bridge:444] text`.
    r"(?: [A-Za-z_][\w.]*:\d+\]|:)\s*(?P<msg>\S.*)$"
)
# More logged lines than this are a log, not a paste of an error: its first ones are read.
_MAX_LOGGED = 12


def only_logged(lines: list[str]) -> bool:
    """Lines that are log records at error or warning level, or a paste's elision, only."""
    kept = [line.strip() for line in lines if line.strip()]
    return bool(kept) and all(_LOGGED.match(line) or line in ("...", "…") for line in kept)


def logged_messages(lines: list[str]) -> list[Traceback]:
    """Each message a log line at error or warning level carries, with the lines that continue
    it (up to a blank line, a traceback or the next logged line), as a message without its
    class: a program or logger printing `str(error)` (diffusers#2155 printed `ERROR: lax.select
    requires ...`)."""
    found: list[Traceback] = []
    for index, line in enumerate(lines):
        logged = _LOGGED.match(line.strip())
        if logged is None:
            continue
        message = [logged["msg"]]
        for after in lines[index + 1 :]:
            if not after.strip() or _LOGGED.match(after.strip()) or after.startswith("Traceback"):
                break
            message.append(after.strip())
        found.append(Traceback("", "\n".join(message)))
        if len(found) == _MAX_LOGGED:
            break
    return found
