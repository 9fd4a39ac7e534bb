"""Matching a message whose exception class was not copied: against every class, and only when
the best match is unambiguous.

Two entries of different classes whose templates (or patterns) match equally well mean the text
alone cannot say which error it is: then nothing is said. Without an exact match, a fuzzy match on
the first line must be close (`FUZZY_CUTOFF`) and clearly ahead of the best entry of another class.
"""

from __future__ import annotations

import re
import weakref
from pathlib import PurePosixPath

from jaxerr_ls.catalog.loglines import (
    LOG_HEADER,
    MAX_HEADERS,
    SEVERITY_NAMES,
    header_line,
    header_severity,
    logged_severity,
    logging_file,
    past_python_log_header,
)
from jaxerr_ls.catalog.match import CUT_SCORE, Matcher
from jaxerr_ls.catalog.model import PLACEHOLDER as _PLACEHOLDER
from jaxerr_ls.catalog.model import WRAPPER_NOTE, Entry
from jaxerr_ls.catalog.templates import Match, short_class

FUZZY_CUTOFF = 92
# A fuzzy winner must beat the best entry of another class by this many points.
FUZZY_MARGIN = 4
# A later paragraph of a message must open with this much literal text to name its error.
MIN_PARAGRAPH = 60
# A printed line alone (`_printed_line`): in a text this short, of at least this length.
MAX_PRINTED_LINES = 12
MIN_PRINTED_LINE = 40
# A message without its class broken across this many lines at most is read unwrapped.
MAX_UNWRAPPED_LINES = 4
# Where a message typed in a comment starts: after `#` and a short label (`#error:`).
_LABEL = re.compile(r"#\s*(?:[A-Za-z][A-Za-z ]{0,19}:\s*)?")
# How far into a paste its log lines are read for their severity.
MAX_LOG_TEXT = 200_000
# A C++ log's error line cut short names its message from this much text, and only from a
# message its file logs this near the header's line (line numbers drift between releases).
MIN_LOG_CUT = 6
LOG_LINE_WINDOW = 20
# Per matcher: the generated log entries by the basename of each file that logs them.
_LOGGED: weakref.WeakKeyDictionary[Matcher, dict[str, list[Entry]]] = weakref.WeakKeyDictionary()
# Per matcher: (first line of each template without placeholders, its entry).
_CHOICES: weakref.WeakKeyDictionary[Matcher, list[tuple[str, Entry]]] = weakref.WeakKeyDictionary()


def match_any_class(matcher: Matcher, message: str) -> Match | None:
    """The one entry the message belongs to whatever its class, or None when unsure."""
    text = message.strip()
    if not text:
        return None
    # A Python log line (`ERROR:root:`, `WARNING:absl:`, absl's `W0312 ... file.py:758] `): its
    # message is read past the header first, as an exception's is past its class.
    body = past_python_log_header(text)
    if body is not None:
        found = match_any_class(matcher, body)
        if found is not None:
            return found
    # A log's ERROR and FATAL lines say what failed, its warnings what was noticed on the way
    # (a driver older than ptxas, then `E ... ptxas exited with non-zero error code`): a curated
    # entry of an error line first. A generated one is no better than a warning's curated entry
    # (`W ... ptxas too old` says why `E ... Failed to get PTX kernel` followed).
    for line in _severe_log_lines(text):
        found = _unambiguous(matcher.hits(line) or matcher.hits(line, runtime=True))
        if found is not None and found.entry.curated:
            return found
    # A log or console text often holds XLA's message on a later line: tried after JAX's own.
    hits = matcher.hits(text) or matcher.hits(text, runtime=True)
    if hits:
        return _unambiguous(hits)
    # A wording only releases before the main index printed (loaded only now: see
    # `Matcher.match`), exact, before a fuzzy guess at today's wordings.
    older = matcher.older_matcher()
    hits = older.hits(text) if older is not None else []
    if hits:
        return _unambiguous(hits)
    # A program's output around the message it caught and printed (`print(e)` between its own
    # lines, jax#2663): a line of a short text that is, alone, an entry's message.
    found = _printed_line(matcher, text)
    if found is None and older is not None:
        found = _printed_line(older, text)
    if found is not None:
        return found
    # The message typed in a comment on the line of code that raised it
    # (`jax.grad(mlp)(point) #error: Gradient only defined for ...`): what follows the label.
    for label in _LABEL.finditer(text.split("\n", 1)[0]):
        hits = matcher.hits(text[label.end() :])
        if hits:
            return _unambiguous(hits)
    found = _paragraph(matcher, text)
    if found is None and older is not None:
        found = _paragraph(older, text)
    # A message whose beginning was left out (`... got Ellipsis.`): the template it ends; one
    # cut at its end (an excerpt, a wrapped line not copied): the template it begins.
    return (
        found
        or matcher.match_cut_start("", text)
        or matcher.match_cut("", text)
        or matcher.match_cut_below("", text)
        or _cut_log_line(matcher, text)
        # Words quoted from inside a message: neither its beginning nor its end.
        or matcher.match_inside(text)
        # A message broken inside its sentences where it was copied from (a page's wrapping:
        # `The input   \n  carry component c[1] ...`), read again without those breaks.
        or _unwrapped_again(matcher, text)
        or _fuzzy(matcher, text.split("\n", 1)[0])
    )


# A line a page or an editor broke inside a sentence: it ends in a word (or a closing quote or
# comma) and the next starts in lower case (`... encountered where a` / `concrete value ...`).
_HARD_WRAP = re.compile(r"(?<=[\w,`'\")])[ \t]*\n[ \t]*(?=[a-z`(])")


def unwrapped(message: str) -> str:
    """The message with the line breaks a copy put inside its sentences taken out."""
    return _HARD_WRAP.sub(" ", message)


def _unwrapped_again(matcher: Matcher, text: str) -> Match | None:
    # Only a short text: a longer one is a log or a program's output, whose lines are not one
    # message. `unwrapped` leaves no break it would take out, so this recurses once at most.
    if text.count("\n") >= MAX_UNWRAPPED_LINES:
        return None
    message = unwrapped(text)
    return match_any_class(matcher, message) if message != text else None


def _printed_line(matcher: Matcher, text: str) -> Match | None:
    lines = text.split("\n")
    if not 1 < len(lines) <= MAX_PRINTED_LINES:
        return None
    for line in lines:
        if len(line.strip()) >= MIN_PRINTED_LINE:
            found = _unambiguous(matcher.hits(line.strip()))
            # JAX's note between a pytest summary's errors heads an error; it is not one.
            if found is not None and found.entry.id != WRAPPER_NOTE:
                return found
    return None


def _severe_log_lines(text: str) -> list[str]:
    """The ERROR and FATAL lines of a C++ log (header and text), in order; none when the text
    has no warning or note to tell them from."""
    severities: list[str] = []
    severe: list[str] = []
    for found in LOG_HEADER.finditer(text, 0, MAX_LOG_TEXT):
        end = text.find("\n", found.end())
        # absl's CHECK_OK prints the status it checked on the next line: it says what failed.
        checked = text.startswith("Non-OK-status", found.end())
        if end >= 0 and checked and text.startswith("Status: ", end + 1):
            after = text.find("\n", end + 1)
            end = after if after >= 0 else len(text)
        severity = header_severity(found)
        severities.append(severity)
        if severity in ("E", "F"):
            severe.append(text[found.start() : end if end >= 0 else len(text)].strip())
        if len(severities) == MAX_HEADERS:
            break
    return severe if {"W", "I"} & set(severities) else []


def _cut_log_line(matcher: Matcher, text: str) -> Match | None:
    """A paste that ends in a C++ log's error line cut short (`E0905 ... cuda_blas.cc:197]
    failed`, an excerpt or a copy that stopped): the message its file logs that begins with what
    was copied, at the severity of the header, nearest the header's line; None when two
    messages are as near, or none within `LOG_LINE_WINDOW` lines."""
    last = text.rstrip().rsplit("\n", 1)[-1]
    header = LOG_HEADER.match(last)
    if header is None or header_severity(header) not in ("E", "F"):
        return None
    cut = " ".join(last[header.end() :].split())
    line, file = header_line(header), logging_file(header)
    if len(cut) < MIN_LOG_CUT or line is None or file is None:
        return None
    severity = SEVERITY_NAMES[header_severity(header)]
    near: dict[str, tuple[int, Entry]] = {}
    for entry in _logged(matcher).get(file, ()):
        literal = " ".join(_PLACEHOLDER.split(entry.message, 1)[0].split())
        if logged_severity(entry) != severity or not literal.startswith(cut):
            continue
        distance = min(
            abs(site.line - line)
            for site in entry.raised_at
            if PurePosixPath(site.file).name == file
        )
        if distance <= LOG_LINE_WINDOW:
            near[entry.id] = (distance, entry)
    ranked = sorted(near.values(), key=lambda found: found[0])
    if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return Match(ranked[0][1], {}, CUT_SCORE, cut=True)


def _logged(matcher: Matcher) -> dict[str, list[Entry]]:
    index = _LOGGED.get(matcher)
    if index is None:
        index = {}
        for entry in matcher.catalog.entries:
            if logged_severity(entry):  # a generated log entry
                for file in {PurePosixPath(site.file).name for site in entry.raised_at}:
                    index.setdefault(file, []).append(entry)
        _LOGGED[matcher] = index
    return index


def _paragraph(matcher: Matcher, text: str) -> Match | None:
    """A paste that starts at a later line of one error's message (the lines above it were not
    copied): its opening, `MIN_PARAGRAPH` characters or more of literal text, is how that line
    of exactly one entry's template begins."""
    head = " ".join(text.split())
    if len(head) < MIN_PARAGRAPH:
        return None
    found: dict[str, Entry] = {}
    for template in matcher.templates:
        for paragraph in template.message.split("\n")[1:]:
            literal = " ".join(_PLACEHOLDER.split(paragraph, 1)[0].split())
            if len(literal) < MIN_PARAGRAPH:
                continue
            size = min(len(literal), len(head))
            if literal[:size] == head[:size]:
                found[template.entry.id] = template.entry
    if len(found) != 1:
        return None
    [entry] = found.values()
    return Match(entry, {}, 90)


def _unambiguous(hits: list[tuple[tuple[int, ...], Match]]) -> Match | None:
    if not hits:
        return None
    hits.sort(key=lambda hit: hit[0], reverse=True)
    best_key, best = hits[0]
    best_class = short_class(best.entry.exception)
    for key, other in hits[1:]:
        if key[:6] != best_key[:6]:  # up to literal specificity
            break  # ranked lower on what the text shows: not a tie
        if short_class(other.entry.exception) != best_class:
            return None
    return best


def _fuzzy(matcher: Matcher, first_line: str) -> Match | None:
    from rapidfuzz import fuzz, process

    choices = _CHOICES.get(matcher)
    if choices is None:
        choices = [(_template_line(t.message), t.entry) for t in matcher.templates]
        _CHOICES[matcher] = choices
    found = process.extract(
        " ".join(first_line.split())[:300],
        [text for text, _ in choices],
        scorer=fuzz.ratio,
        score_cutoff=FUZZY_CUTOFF - FUZZY_MARGIN,
        limit=20,
    )
    if not found or found[0][1] < FUZZY_CUTOFF:
        return None
    _, score, position = found[0]
    entry = choices[position][1]
    for _, other_score, other in found[1:]:
        rival = choices[other][1]
        if short_class(rival.exception) != short_class(entry.exception) and (
            score - other_score < FUZZY_MARGIN
        ):
            return None
    return Match(entry, {}, int(score))


def _template_line(message: str) -> str:
    return " ".join(_PLACEHOLDER.sub(" ", message.split("\n", 1)[0]).split())
