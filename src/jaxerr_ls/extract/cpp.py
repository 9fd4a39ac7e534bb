"""Error messages in C++ source (XLA, jaxlib), read as text: never compiled, never run.

What counts as a message: a status built with a literal text (`absl::InternalError("...")`,
`absl::InvalidArgumentError(absl::StrCat("...", x))`, XLA's `InvalidArgument("... %s", x)`,
`tsl::errors::Internal("...", x)`, `ffi::Error::Internal(...)`) and a Python exception raised
from C++ (`nb::value_error(...)`, `throw std::invalid_argument(...)`, `PyErr_SetString(...)`).
Each becomes a template in the catalog's form: the literal text, with `{name}` where the code
inserts a value (named after the expression when it is a plain name, else `argN`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# absl's status codes as `absl::Status::ToString()` prints them.
STATUS_CODES = {
    "Internal": "INTERNAL",
    "InvalidArgument": "INVALID_ARGUMENT",
    "FailedPrecondition": "FAILED_PRECONDITION",
    "ResourceExhausted": "RESOURCE_EXHAUSTED",
    "Unimplemented": "UNIMPLEMENTED",
    "Unavailable": "UNAVAILABLE",
    "NotFound": "NOT_FOUND",
    "Unknown": "UNKNOWN",
    "Aborted": "ABORTED",
    "Cancelled": "CANCELLED",
    "DeadlineExceeded": "DEADLINE_EXCEEDED",
    "AlreadyExists": "ALREADY_EXISTS",
    "OutOfRange": "OUT_OF_RANGE",
    "PermissionDenied": "PERMISSION_DENIED",
    "DataLoss": "DATA_LOSS",
    "Unauthenticated": "UNAUTHENTICATED",
}
# Python exceptions raised from C++ bindings (nanobind, pybind11, the C API).
PY_ERRORS = {
    "value_error": "ValueError",
    "type_error": "TypeError",
    "index_error": "IndexError",
    "attribute_error": "AttributeError",
    "key_error": "KeyError",
    "invalid_argument": "ValueError",
    "runtime_error": "RuntimeError",
}
_CODES = "|".join(STATUS_CODES)
_CALL = re.compile(
    r"(?<![\w:])(?:"
    rf"absl::(?P<absl>{_CODES})Error"
    rf"|(?:xla::|tsl::errors::|errors::|ffi::Error::|Error::)?(?P<xla>{_CODES})(?P<strcat>StrCat)?"
    rf"|(?:xla::)?(?P<olderr>{_CODES})Error(?P<oldcat>StrCat)?"
    r"|(?:absl|tsl|port|tensorflow)::Status\s*\(\s*(?:absl::StatusCode::k|(?:tsl|port|tensorflow)"
    r"::error::)(?P<code>\w+)\s*,"
    r"|(?:nb|py|pybind11|nanobind)::(?P<nb>value_error|type_error|index_error|attribute_error"
    r"|key_error)"
    r"|throw\s+std::(?P<std>invalid_argument|runtime_error)"
    r"|PyErr_(?P<pyerr>SetString|Format)\s*\(\s*PyExc_(?P<pyexc>\w+)\s*,"
    r")\s*(?(pyerr)|(?(code)|\())"
)
_COMMENT_OR_STRING = re.compile(
    r'//[^\n]*|/\*.*?\*/|R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.DOTALL,
)
_STRING = re.compile(r'"((?:\\.|[^"\\\n])*)"')
_FORMAT = re.compile(r"%(?:%|[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t)?[a-zA-Z])")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\", "r": ""}
# Words that name no value: `absl::StrCat(a.ToString())` is named after `a`.
_NOISE = frozenset(
    {
        *("absl", "std", "xla", "tsl", "nb", "str", "c_str", "ToString", "string_view", "size"),
        *("data", "get", "value", "status", "message", "StrCat", "StrFormat", "StrJoin"),
        *("HumanReadableNumBytes", "what", "name", "first", "second", "this", "strings"),
        *("errors", "ShapeUtil", "HumanString", "ToProto"),
    }
)
# A template needs this much literal text, with one word of 4+ letters, to identify anything.
MIN_LITERAL = 12


@dataclass(frozen=True)
class CppMessage:
    """One message template and where the code builds it."""

    kind: str  # "status" or "python"
    code: str  # status code ("INTERNAL") or Python class ("ValueError")
    template: str
    line: int  # 1-based
    function: str


def blank_comments(text: str) -> str:
    """The text with comments replaced by spaces (newlines kept, so line numbers hold)."""

    def blank(found: re.Match[str]) -> str:
        piece = found.group(0)
        if piece.startswith(("//", "/*")):
            return re.sub(r"[^\n]", " ", piece)
        return piece

    return _COMMENT_OR_STRING.sub(blank, text)


def _balanced(text: str, start: int) -> int | None:
    """The index just past the parenthesis closing the one before `start`, or None."""
    depth = 1
    position = start
    while position < len(text):
        char = text[position]
        if char in "\"'":
            found = re.compile(r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'").match(text, position)
            position = found.end() if found else position + 1
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return position + 1
        elif char == ";" and depth == 1:
            return None
        position += 1
    return None


# A C++ string or character literal starting where it is matched.
STRING_AT = re.compile(r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'")


def stream_operands(code: str, position: int, *, comma_ends: bool = False) -> tuple[list[str], int]:
    """`head << a << "b" << c` from `position` to the statement's end: [head, a, "b", c] (as
    written, stripped) and that end. Stops at a `;`, at a `)` closing what the stream sits in,
    and with `comma_ends` at a `,` (a stream passed as an argument). A macro body's line joins
    (`\\` at a line's end) read as spaces."""
    operands: list[str] = []
    current = ""
    depth = 0
    while position < len(code):
        char = code[position]
        if char in "\"'":
            found = STRING_AT.match(code, position)
            if found:
                current += found.group(0)
                position = found.end()
                continue
        if char == "\\" and code.startswith("\\\n", position):
            current += " "
            position += 2
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (char == ";" or (comma_ends and char == ",")):
            break
        elif depth == 0 and code.startswith("<<", position):
            operands.append(current)
            current = ""
            position += 2
            continue
        current += char
        position += 1
    operands.append(current)
    return [operand.strip() for operand in operands], position


def split_args(text: str) -> list[str]:
    """Top-level comma-separated arguments of a call's inside."""
    args: list[str] = []
    depth = 0
    current = ""
    position = 0
    while position < len(text):
        char = text[position]
        if char in "\"'":
            found = re.compile(r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'").match(text, position)
            if found:
                current += found.group(0)
                position = found.end()
                continue
        if char in "([{<" and not (char == "<" and not _template_open(text, position)):
            depth += 1
        elif char in ")]}>" and depth and not (char == ">" and text[position - 1] == "-"):
            depth -= 1
        elif char == "," and depth == 0:
            args.append(current.strip())
            current = ""
            position += 1
            continue
        current += char
        position += 1
    if current.strip():
        args.append(current.strip())
    return args


def _template_open(text: str, position: int) -> bool:
    """`<` opening template arguments (`std::vector<int>`), not a comparison (`a < b`)."""
    return position > 0 and (text[position - 1].isalnum() or text[position - 1] == "_")


def _literal(expression: str) -> str | None:
    """The text of adjacent string literals (`"a" "b"`), or None when it is anything else."""
    pieces = _STRING.findall(expression)
    if not pieces or _STRING.sub("", expression).strip():
        return None
    return "".join(_unescape(piece) for piece in pieces)


def _unescape(piece: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), piece)


def _escape_braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


class _Namer:
    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, expression: str) -> str:
        words = [w for w in _IDENT.findall(expression) if w not in _NOISE and not w[0].isupper()]
        if _IDENT.fullmatch(expression.strip()):  # a plain name names itself (`size`)
            words = [expression.strip()]
        base = words[-1] if words and len(words) <= 3 else f"arg{len(self.used)}"
        name = base
        while name in self.used:
            name = f"{base}{len(self.used)}"
        self.used.add(name)
        return "{" + name + "}"


def _strip_call(expression: str, name: str) -> str | None:
    """The inside of `name(...)` when the expression is exactly that call (`.c_str()` allowed)."""
    expression = re.sub(r"\.(?:c_str|data)\(\)\s*$", "", expression.strip())
    found = re.match(rf"(?:absl::|std::|tsl::strings::)?{name}\s*\(", expression)
    if not found:
        return None
    end = _balanced(expression, found.end())
    if end != len(expression):
        return None
    return expression[found.end() : end - 1]


def render(expression: str, namer: _Namer) -> str:
    """An argument expression as template text."""
    text = _literal(expression)
    if text is not None:
        return _escape_braces(text)
    inside = _strip_call(expression, "StrCat")
    if inside is not None:
        return concat(split_args(inside), namer)
    inside = _strip_call(expression, "StrFormat")
    if inside is not None:
        return formatted(split_args(inside), namer)
    return namer(expression)


def concat(args: list[str], namer: _Namer) -> str:
    return "".join(render(arg, namer) for arg in args)


def formatted(args: list[str], namer: _Namer) -> str:
    if not args:
        return ""
    spec = _literal(args[0])
    if spec is None:
        return namer(args[0])
    values = iter(args[1:])
    out = []
    position = 0
    for found in _FORMAT.finditer(spec):
        out.append(_escape_braces(spec[position : found.start()]))
        position = found.end()
        if found.group(0) == "%%":
            out.append("%")
            continue
        value = next(values, "")
        out.append(render(value, namer) if value else namer("value"))
    out.append(_escape_braces(spec[position:]))
    return "".join(out)


def literal_length(template: str) -> int:
    return len(re.sub(r"\{[^{}]*\}", "", template).strip())


def worth_keeping(template: str) -> bool:
    """Enough literal text to identify an error (not `"{arg0}"`, not `"Error: {x}"`)."""
    literal = re.sub(r"\{[^{}]*\}", " ", template)
    return (
        literal_length(template) >= MIN_LITERAL and re.search(r"[A-Za-z]{4,}", literal) is not None
    )


_FUNCTION = re.compile(
    r"^(?!\s)(?!(?:if|for|while|switch|return|namespace|class|struct|template|using|typedef|"
    r"static_assert|#)\b)[^;{}=]*?\b(?P<name>[A-Za-z_][\w:~]*)\s*\([^;]*$",
    re.MULTILINE,
)


def enclosing_function(text: str, position: int) -> str:
    """The function (at column 0) the position is in: a reading good enough to name a place."""
    found = None
    for candidate in _FUNCTION.finditer(text, 0, position):
        found = candidate
    if found is None:
        return "<file scope>"
    name = found.group("name")
    return name if not name.startswith("ABSL_") else "<file scope>"


def messages(text: str) -> list[CppMessage]:
    """Every literal message the file builds, in order."""
    code = blank_comments(text)
    found: list[CppMessage] = []
    for call in _CALL.finditer(code):
        if call.group("pyerr"):
            end = _balanced(code, call.end())
            if end is None:
                continue
            args = split_args(code[call.end() : end - 1])
            namer = _Namer()
            template = (
                (
                    render(args[0], namer)
                    if call.group("pyerr") == "SetString"
                    else formatted(args, namer)
                )
                if args
                else ""
            )
            kind, cls = "python", call.group("pyexc")
        else:
            end = _balanced(code, call.end())
            if end is None:
                continue
            args = split_args(code[call.end() : end - 1])
            if not args:
                continue
            namer = _Namer()
            name = call.group("absl") or call.group("xla") or call.group("olderr")
            if call.group("code"):
                raw = call.group("code")
                upper = raw if raw.isupper() else re.sub(r"(?<!^)(?=[A-Z])", "_", raw).upper()
                code_name = {v: k for k, v in STATUS_CODES.items()}.get(upper)
                if code_name is None or len(args) != 1:
                    continue
                template, kind, cls = render(args[0], namer), "status", upper
            elif call.group("olderr"):
                # XLA's older `InternalError(fmt, ...)` formats; `...ErrorStrCat` concatenates.
                if len(args) == 1:
                    template = render(args[0], namer)
                elif call.group("oldcat"):
                    template = concat(args, namer)
                else:
                    template = formatted(args, namer)
                kind, cls = "status", STATUS_CODES[name]
            elif call.group("absl"):
                template = render(args[0], namer) if len(args) == 1 else ""
                kind, cls = "status", STATUS_CODES[name]
            elif call.group("xla"):
                # XLA's `Internal(fmt, ...)` formats; `InternalStrCat` and tsl's `errors::`
                # concatenate.
                head = code[call.start() : call.end()]
                concatenates = call.group("strcat") or "errors::" in head
                if len(args) == 1:
                    template = render(args[0], namer)
                else:
                    template = concat(args, namer) if concatenates else formatted(args, namer)
                kind, cls = "status", STATUS_CODES[name]
            else:
                template = render(args[0], namer)
                kind, cls = "python", PY_ERRORS[call.group("nb") or call.group("std")]
        template = template.strip()
        if not template or not worth_keeping(template):
            continue
        line = code.count("\n", 0, call.start()) + 1
        found.append(CppMessage(kind, cls, template, line, enclosing_function(code, call.start())))
    return found
