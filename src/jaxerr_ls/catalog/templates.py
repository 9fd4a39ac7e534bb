"""Catalog messages as templates: a message's literal pieces and `{placeholders}` compiled to an
anchored regular expression, and what matching reports (`Match`). `catalog/match.py` builds them
for every entry and ranks them; this module knows one template at a time.
"""

from __future__ import annotations

import ast
import re
from contextlib import suppress
from dataclasses import dataclass, field, replace

from jaxerr_ls.catalog.model import PLACEHOLDER as _PLACEHOLDER
from jaxerr_ls.catalog.model import Entry, Wording
from jaxerr_ls.catalog.partial import MIN_READ
from jaxerr_ls.catalog.specific import says_enough
from jaxerr_ls.catalog.xla import RUNTIME_CLASSES, family_status, strip_status

# A template needs this much literal text to identify an error at all (generated: catalog.specific).
MIN_LITERAL = 8
_SPACE = re.compile(r"\s+")
# A template's placeholders (`{name}`, not the escaped braces `{{`/`}}`): its literal pieces.
PIECES = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")
# An exception raised with several arguments prints the tuple of them: `(value, "message")`
# (JAX's tracers raised `AttributeError(self, msg)` before jax#29649); a paste may stop inside the
# message (jax#26931).
_ARGS_REPR = re.compile(
    r"""\A\((?P<head>[^'"]*?), (?P<q>['"])(?P<text>(?:\\.|(?!(?P=q)).)*)(?:(?P=q)\)\Z|\Z)""",
    re.DOTALL,
)


def args_message(message: str) -> str | None:
    """The message string of an exception printed as the tuple of its arguments, or None."""
    found = _ARGS_REPR.match(message.strip())
    return None if found is None else _string(found["q"], found["text"])


_QUOTED = re.compile(r"""\A(?P<q>['"])(?P<text>(?:\\.|(?!(?P=q)).)*)(?P=q)\Z""", re.DOTALL)


def key_message(exception: str, message: str) -> str | None:
    """The message of a KeyError raised with a sentence: Python prints the repr of its key, so
    `KeyError: "No RngStream named 'dropout' found in Rngs."` carries its quotes (None when the
    text is not one quoted string)."""
    if short_class(exception) != "KeyError":
        return None
    found = _QUOTED.match(message.strip())
    return None if found is None else _string(found["q"], found["text"])


def _string(quote: str, literal: str) -> str | None:
    """The text of a Python string literal's body, or None (not a literal, or blank)."""
    try:
        # A reader may already have turned the repr's `\n` into line ends.
        text = ast.literal_eval(quote + literal.replace("\n", "\\n") + quote)
    except (ValueError, SyntaxError):
        return None
    return text if isinstance(text, str) and text.strip() else None


class TemplateError(ValueError):
    """The template cannot be compiled (unbalanced braces)."""


@dataclass(frozen=True)
class Template:
    entry: Entry
    regex_source: str  # compiled on first use: most templates are never tried
    names: tuple[str, ...]  # placeholder names, in group order (group i+1 -> names[i])
    prefix: str  # normalised literal text before the first placeholder
    whole_word: bool  # the prefix's first word is complete ("lax.{op}" leaves "lax." partial)
    longest: str  # normalised longest literal piece
    literal_len: int
    message: str = ""  # the template text (the entry's message or one of its older wordings)
    current: bool = True  # the entry's own message, not an older wording
    versions: tuple[str, ...] = ()  # releases printing this wording (() = the entry's releases)
    exception: str = ""  # the class printing this wording ("" = the entry's)
    authored: bool = False  # an older wording a curator wrote down for the entry

    @property
    def cls(self) -> str:
        return short_class(self.exception or self.entry.exception)


@dataclass(frozen=True)
class Match:
    entry: Entry
    fields: dict[str, str] = field(default_factory=dict)
    score: int = 100
    # How the entry was found: "message" (a template, pattern or close wording), "raise_site"
    # (where JAX raised it) or "class" (a JAX-specific class alone; see catalog.classes).
    by: str = "message"
    cut: bool = False  # the message stops short: found by its beginning (`catalog.partial`)
    # The message's beginning was left out (`... got Ellipsis.`): found by its end.
    cut_start: bool = False
    # Words quoted from inside the message, neither its beginning nor its end (`inside.py`).
    inside: bool = False
    # Where a "raise_site" match was raised, in words, when not the last JAX frame.
    where: str = ""
    # A cut whose text begins this many entries' wordings, all of the class printed: the entry
    # is the most common curated one of them (`Matcher._best_cut`); 0 when it names one alone.
    shared: int = 0


# `{name}` in an entry's prose, not the escaped `{{`: a value read from the message goes there.
_PROSE_FIELD = re.compile(r"(?<!\{)\{(\w+)\}(?!\})")
# A value longer than this is shortened in prose (the whole of it is in "From the message").
_PROSE_VALUE = 60


def with_fields(match: Match) -> Match:
    """The match with its entry's meaning and solutions stating the values read from the
    message (opened `{module}.so` -> opened `xla_extension.so`); one of the entry's fields
    not read (a message cut short, an entry found by its raise site) reads `…`, and braces
    that name no field (code: `jax.debug.print("{x}", x=x)`) stay."""
    entry = match.entry
    names = _field_names(entry)

    def fill(text: str) -> str:
        def value(found: re.Match[str]) -> str:
            read = " ".join(match.fields.get(found[1], "").split())
            if not read:
                return _UNREAD if found[1] in names else found[0]
            return read if len(read) <= _PROSE_VALUE else read[: _PROSE_VALUE - 1] + "…"

        return _PROSE_FIELD.sub(value, text)

    filled = replace(
        entry, meaning=fill(entry.meaning), solutions=tuple(fill(s) for s in entry.solutions)
    )
    return replace(match, entry=filled)


# What an entry's field not read from the message reads as in an explanation.
_UNREAD = "…"


def _field_names(entry: Entry) -> frozenset[str]:
    """The fields an entry's message and patterns name (what its prose may state)."""
    names: set[str] = set()
    with suppress(TemplateError):
        names.update(compile_template(entry.message)[1])
    for pattern in entry.patterns:
        try:
            names.update(re.compile(pattern).groupindex)
        except re.error:
            continue
    return frozenset(names)


def norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def compile_template(message: str) -> tuple[str, tuple[str, ...], list[str]]:
    """Regex source, placeholder names and literal pieces of a template."""
    parts: list[str] = []
    names: list[str] = []
    literals: list[str] = []
    current = ""
    position = 0
    for found in _PLACEHOLDER.finditer(message):
        current += message[position : found.start()]
        position = found.end()
        token = found.group(0)
        if token in ("{{", "}}"):
            current += token[0]
            continue
        literals.append(current)
        parts.append(_literal_regex(current))
        if names and not current:
            # Two placeholders side by side: the second one's value cannot be told apart.
            parts.append("")
        else:
            names.append(found.group(1).strip() or f"arg{len(names)}")
            parts.append("(.*?)")
        current = ""
    rest = message[position:]
    if "{" in rest or "}" in rest:
        raise TemplateError(f"unbalanced brace in template {message[:60]!r}")
    current += rest
    literals.append(current)
    parts.append(_literal_regex(current))
    return "".join(parts), tuple(names), literals


def cut_pieces(message: str) -> tuple[list[str], list[bool]]:
    """A template's literal pieces, normalised, as `partial.follow` reads a cut message; and for
    each, whether it follows its placeholder with no space or mark between (`{trace}Tracer`):
    where such a value was cut cannot be told."""
    raw = compile_template(message)[2]
    glued = [i > 0 and (piece[:1].isalnum() or piece[:1] == "_") for i, piece in enumerate(raw)]
    return [norm(piece) for piece in raw], glued


# Marks a word may end with where it ends a template or a message (`got.` is `got`).
WORD_END = ".,:;!?)]'\"`"


def glued_before(message: str) -> list[bool]:
    """For each literal piece of a template, whether its placeholder follows it with no space or
    mark between (`got{x}`): where a message whose start was cut begins inside such a value
    cannot be told (`partial.follow_end`)."""
    raw = compile_template(message)[2]
    return [i < len(raw) - 1 and (p[-1:].isalnum() or p[-1:] == "_") for i, p in enumerate(raw)]


def _literal_regex(text: str) -> str:
    return r"\s+".join(re.escape(piece) for piece in re.split(r"\s+", text))


def build_template(entry: Entry, wording: Wording | None = None) -> Template | None:
    """The entry's message, or one of its older `wording`s, as a template."""
    message = entry.message if wording is None else wording.message
    try:
        source, names, literals = compile_template(message)
    except TemplateError:
        return None
    literal_len = sum(len(norm(piece)) for piece in literals)
    if literal_len < MIN_LITERAL or family_status(message):
        return None
    if not (entry.curated or says_enough(literals)):
        return None
    normalised = [norm(piece) for piece in literals]
    # A sentence's final full stop is often left out when the message is typed or quoted
    # inline ("IndexError: Array boolean indices must be concrete"). Only after literal words:
    # a message that ends inside a placeholder's value is cut short (`catalog/partial.py`).
    if (
        source.endswith(r"\.")
        and not source.endswith(r"\.\.")
        and literals[-1].strip().rstrip(".").strip()
    ):
        source += "?"
        normalised[-1] = normalised[-1][:-1]
    elif literals[-1] == "." and source.endswith(r"(.*?)\."):
        # After a placeholder only where its value closes a bracket or quote (`got
        # PyTreeDef(...)`): a value stopping anywhere else may be cut short.
        source = source[:-2] + r"(?:\.|(?<=[)\]'\"`>]))"
    elif literals[-1].strip() and literals[-1].rstrip()[-1:].isalnum():
        # ... and one a release left out is often written (JAX 0.4.26 printed "... is not a
        # valid JAX type" where earlier and later releases end the sentence).
        source += r"\.?"
    # The template must end where the message or one of its lines ends; a template ending in
    # a word may also end where a clause follows it (", or derive them ..."): a later release
    # than the catalog's added to the sentence. Not after a placeholder, whose value would stop
    # at the first comma, and only for a template long enough to name its error alone.
    end = r"[ \t]*(?:\n|$)"
    last = literals[-1].rstrip()
    if literal_len >= MIN_READ and last[-1:] not in ("", ".", ":", ",", ";"):
        end = r"[ \t]*(?:\n|$|(?=[,;] ))"
    return Template(
        entry=entry,
        regex_source=r"\s*" + source + end,
        names=names,
        prefix=normalised[0],
        whole_word=len(literals) == 1 or re.match(r"\s*\S+\s", literals[0]) is not None,
        longest=max(normalised, key=len),
        literal_len=literal_len,
        message=message,
        current=message == entry.message,
        versions=wording.versions if wording is not None else (),
        exception=wording.exception if wording is not None else "",
        authored=wording is not None and wording.curated,
    )


def short_class(name: str) -> str:
    """`jax.errors.TracerBoolConversionError` -> `TracerBoolConversionError`."""
    return name.rsplit(".", 1)[-1].strip()


def same_class(printed: str, expected: str) -> bool:
    """The same class, counting every class that carries an XLA status to Python as one
    (`XlaRuntimeError`, `JaxRuntimeError`, the `RuntimeError` of older jaxlib)."""
    return printed == expected or (printed in RUNTIME_CLASSES and expected in RUNTIME_CLASSES)


def segment_template(entry: Entry, wording: Wording | None = None) -> tuple[Template, str] | None:
    """A template of an error below JAX's Python, matchable where a wrapped status starts: the
    body without its status code (one compile: thousands are built on the first runtime error);
    it may end where the wrapper's text goes on (`; ...`). Also: the body's longest literal."""
    message = entry.message if wording is None else wording.message
    try:
        source, names, literals = compile_template(strip_status(message))
    except TemplateError:
        return None
    normalised = [norm(piece) for piece in literals]
    literal_len = sum(len(piece) for piece in normalised)
    if literal_len < MIN_LITERAL or not (entry.curated or says_enough(literals)):
        return None
    ending = r"[ \t]*(?:\n|$)" if not literals[-1].strip() else r"(?=[\s.;:,)'\"]|$)"
    template = Template(
        entry=entry,
        regex_source=r"\s*" + source + ending,
        names=names,
        prefix=normalised[0],
        whole_word=False,
        longest=max(normalised, key=len),
        literal_len=literal_len,
        message=message,
        current=wording is None,
        versions=wording.versions if wording is not None else (),
        exception=wording.exception if wording is not None else "",
        authored=wording is not None and wording.curated,
    )
    return template, template.longest
