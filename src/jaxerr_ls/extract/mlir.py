"""MLIR diagnostics in C++ source (Mosaic TPU, Mosaic GPU, jaxlib's Triton glue), read as text.

Pallas lowers kernels to MLIR dialects whose C++ reports failures with MLIR's diagnostics rather
than statuses: `op.emitOpError("...")`, `op->emitError() << "..." << x`, `emitError(loc, "...")`,
`mlir::emitError(loc) << ...`, `emitOpError(llvm::formatv("... {0}", x))` in an op's verifier.
MLIR prints them as `'tpu.matmul' op <message>` (emitOpError) or `<loc>: error: <message>`
(emitError), and they reach Python inside `Mosaic failed to compile TPU kernel: ...`, an
`MLIRError`, Pallas's `MosaicError`/`VerificationError` or a lowering exception.

Each diagnostic with literal text becomes a template in the catalog's form, as `cpp.py` reads
statuses (its string, `StrCat` and `%`-format reading is reused here): the literal text with
`{name}` where the code streams or formats a value in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jaxerr_ls.extract.cpp import (
    _balanced,
    _escape_braces,
    _literal,
    _Namer,
    _strip_call,
    blank_comments,
    enclosing_function,
    render,
    split_args,
    stream_operands,
    worth_keeping,
)

# `x.emitOpError(`, `op->emitError(`, `mlir::emitError(`, `emitError(` (a verifier's own).
_DIAGNOSTIC = re.compile(
    r"(?P<member>\.|->)?\s*(?P<scope>mlir::)?\b(?P<kind>emitOpError|emitError)\s*\("
)
# Mosaic's own shorthands for `op->emitOpError(msg); return failure();` (infer_vector_layout.cc):
# `TPU_CHECK_OP(cond, msg)` and `NYI(msg)`, which prefixes "not implemented: ".
_MACRO = re.compile(r"(?<![\w#])(?P<macro>TPU_CHECK_OP|NYI)\s*\(")
_MACRO_PREFIX = {"TPU_CHECK_OP": "", "NYI": "not implemented: "}
# A function's head at column 0 (`cpp.enclosing_function`) or a method's in a class body, two
# columns in, with a return type before its name (`  LogicalResult infer(TransposeOp op) {`).
_METHOD = re.compile(
    r"^ {2}(?! )(?!(?:if|for|while|switch|return|else|case|do|using|typedef|static_assert)\b)"
    r"[\w:<>,*& ]*[\w>*&]\s+[*&]?(?P<name>[A-Za-z_][\w:~]*)\s*\([^;]*$",
    re.MULTILINE,
)
# llvm::formatv's replacement fields: `{0}`, `{1:x}`, `{0,-8}`; `{{` is a literal brace.
_FORMATV_FIELD = re.compile(r"\{\{|\{(\d+)(?:[,:][^{}]*)?\}")


@dataclass(frozen=True)
class MlirDiagnostic:
    """One diagnostic template and where the code emits it."""

    kind: str  # "emitOpError" (printed after `'dialect.op' op `) or "emitError"
    template: str
    line: int  # 1-based
    function: str


def _formatv(args: list[str], namer: _Namer) -> str:
    """`llvm::formatv("a {0} b {1}", x, y)` as template text."""
    spec = _literal(args[0]) if args else None
    if spec is None:
        return namer(args[0]) if args else ""
    values = args[1:]
    out: list[str] = []
    position = 0
    for found in _FORMATV_FIELD.finditer(spec):
        out.append(_escape_braces(spec[position : found.start()]))
        position = found.end()
        if found.group(1) is None:
            out.append("{{")
            continue
        number = int(found.group(1))
        out.append(render(values[number], namer) if number < len(values) else namer("value"))
    out.append(_escape_braces(spec[position:]))
    return "".join(out)


def _getter(found: re.Match[str]) -> str:
    """`getMemorySpace()` -> `memory_space`, `getName()` -> `op_name`: what the value is."""
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", found.group(1)).lower()
    return "op_name" if name == "name" else name


def piece(expression: str, namer: _Namer) -> str:
    """One argument or streamed operand as template text (`llvm::formatv` read too)."""
    expression = re.sub(r"\.str\(\)\s*$", "", expression.strip())
    if _literal(expression) is None:
        # `op.getType()` is named after what it gets, not `getType`.
        expression = re.sub(r"(?:\w+(?:\.|->))*get([A-Z]\w*)\(\)", _getter, expression)
    inside = _strip_call(re.sub(r"^llvm::", "", expression), "formatv")
    if inside is not None:
        return _formatv(split_args(inside), namer)
    inside = _strip_call(re.sub(r"^(?:llvm::)?Twine\s*\(", "StrCat(", expression), "StrCat")
    if inside is not None and expression.lstrip().startswith(("Twine", "llvm::Twine")):
        return "".join(piece(arg, namer) for arg in split_args(inside))
    return render(expression, namer)


def _stream(code: str, position: int) -> tuple[list[str], int]:
    """The operands of `<< a << "b" << c` from `position` up to the statement's end, and that
    end. Stops at a `;`, or at a `)`/`,` closing what the diagnostic sits in."""
    operands, end = stream_operands(code, position, comma_ends=True)
    # Whatever precedes the first `<<` is not streamed (`.attachNote()`, nothing at all).
    return [operand for operand in operands[1:] if operand], end


def _is_message(expression: str) -> bool:
    """An argument that is the text, not a location (`loc`, `op->getLoc()`)."""
    text = expression.strip()
    return (
        text.startswith(('"', 'R"'))
        or re.match(r"(?:absl::|llvm::)?(?:StrCat|StrFormat|formatv|Twine)\s*\(", text) is not None
        or re.match(r"(?:std::)?string\s*\(\s*\"", text) is not None
    )


def _enclosing(code: str, position: int) -> str:
    """The function or method the position is in (a reading good enough to name a place)."""
    outer = enclosing_function(code, position)
    start = 0
    for found in re.finditer(r"^(?!\s)[^\n]*\(", code[:position], re.MULTILINE):
        start = found.start()
    methods = list(_METHOD.finditer(code, start, position))
    method = methods[-1] if methods else None
    return method.group("name") if method is not None and method.start() > start else outer


def says_something(template: str) -> bool:
    """Enough to identify a diagnostic: `cpp.worth_keeping`, and more than a bare `Not
    implemented` or `Unsupported op` (three words, or twenty literal characters)."""
    literal = re.sub(r"\{[^{}]*\}", " ", template)
    words = re.findall(r"[A-Za-z]{2,}", literal)
    return worth_keeping(template) and (len(words) >= 3 or len(literal.strip()) >= 20)


def diagnostics(text: str) -> list[MlirDiagnostic]:
    """Every MLIR error diagnostic with literal text that the file emits, in order."""
    code = blank_comments(text)
    found: list[MlirDiagnostic] = []
    for call in _MACRO.finditer(code):
        end = _balanced(code, call.end())
        args = split_args(code[call.end() : end - 1]) if end is not None else []
        macro = call.group("macro")
        message = args[1:2] if macro == "TPU_CHECK_OP" else args[:1]
        if not message or _literal(message[0]) is None:
            continue
        template = _MACRO_PREFIX[macro] + piece(message[0], _Namer())
        if says_something(template):
            line = code.count("\n", 0, call.start()) + 1
            function = _enclosing(code, call.start())
            found.append(MlirDiagnostic("emitOpError", template, line, function))
    for call in _DIAGNOSTIC.finditer(code):
        end = _balanced(code, call.end())
        if end is None:
            continue
        args = split_args(code[call.end() : end - 1])
        kind = call.group("kind")
        if kind == "emitError" and not call.group("member"):
            # `emitError(loc, msg)` / `mlir::emitError(loc)`; a verifier's `emitError(msg)`.
            if len(args) >= 2:
                args = args[1:2]
            elif args and not _is_message(args[0]):
                args = []
        namer = _Namer()
        head = "".join(piece(arg, namer) for arg in args[:1])
        streamed, _ = _stream(code, end)
        template = (head + "".join(piece(o, namer) for o in streamed)).strip()
        if not template or not says_something(template):
            continue
        line = code.count("\n", 0, call.start("kind")) + 1
        function = _enclosing(code, call.start("kind"))
        found.append(MlirDiagnostic(kind, template, line, function))
    return sorted(found, key=lambda d: d.line)
