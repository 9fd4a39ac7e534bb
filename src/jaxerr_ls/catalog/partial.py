"""Messages cut short: a paste that stops mid-message (an excerpt, a notebook output cut at the
fold, a comment quoting the first line, a trailing `...`) still names its error when what is
there is the beginning of one template, far enough in to tell it from every other.

A template's literal pieces are walked in order; a placeholder takes the text up to where the
next piece is found. The text may end anywhere: inside a piece (cut mid-word too) or inside a
placeholder's value. Only the literal text actually read counts, and it must be long enough that
a short generic phrase ("Shape mismatch") never stands for a long message.

A message may be cut at its start instead: the user left the beginning out and wrote `...` or `…`
in its place (`... expected shapes should be a list or tuple of ints, got Ellipsis.`). What
follows the mark is then the end of one template, read backwards from the template's end by the
same rules (`follow_end`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# Literal characters a cut message must share with the template's beginning: about a line.
MIN_READ = 40
# Trailing marks of a cut: "...", "…", "[...]", a lone quote or bracket left open.
_CUT_MARKS = re.compile(r"(?:\s*(?:\.\.\.|…|\[\.\.\.\]|\[…\]))+\s*$")
_SPACE = re.compile(r"\s+")
# A leading mark of a cut: the message's beginning was left out.
_HEAD_MARK = re.compile(r"^(?:\.\.\.|…|\[\.\.\.\]|\[…\])\s*")


@dataclass(frozen=True)
class Cut:
    """How far a cut message follows a template."""

    read: int  # literal characters of the template found in the text
    fields: dict[str, str]  # placeholder values read (a value cut short is kept as read)


# A cut inside a template's last value (every literal piece read, but for a closing mark) needs
# less: the text is that whole template, its last value cut ("Tuple arity mismatch: 2 != 3;
# tuple: (State(").
MIN_READ_TO_LAST_VALUE = 20
_CLOSING = " .)'\"`"


def enough_read(pieces: Sequence[str], cut: Cut) -> bool:
    """The cut read far enough to name its template: `MIN_READ` literal characters, or every
    piece up to the last value (`MIN_READ_TO_LAST_VALUE`)."""
    if cut.read >= MIN_READ:
        return True
    closing = pieces[-1] if not pieces[-1].strip(_CLOSING) else ""
    return (
        len(pieces) > 1
        and cut.read >= MIN_READ_TO_LAST_VALUE
        and cut.read >= sum(len(piece) for piece in pieces) - len(closing)
    )


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def strip_cut_marks(text: str) -> str:
    return _CUT_MARKS.sub("", _norm(text))


def follow(
    pieces: list[str], names: tuple[str, ...], text: str, glued: Sequence[bool] = ()
) -> Cut | None:
    """The template (normalised literal `pieces` around placeholders `names`) read as far as the
    normalised `text` goes, or None when the text leaves the template or goes past its end (a
    whole message is the full matcher's business). `glued[i]`: piece i follows its placeholder
    without a space or mark between them."""
    text = strip_cut_marks(text)
    if not text:
        return None
    first = pieces[0]
    if not first.startswith(text[: len(first)]):
        return None
    if len(text) <= len(first):
        return Cut(len(text), {})
    pieces, glued = _side_by_side_as_one(pieces, glued)
    if len(pieces) != len(names) + 1:
        return None
    read, position, fields = len(first), len(first), {}
    for index, piece in enumerate(pieces[1:]):
        name = names[index]
        if not piece:  # a placeholder at the very end takes the rest
            fields[name] = text[position:].strip()
            return Cut(read, fields)
        found = text.find(piece, position)
        if found < 0:
            # The text ends in this placeholder's value or inside the piece after it.
            value, tail = text[position:], 0
            for size in range(min(len(piece), len(value)), 0, -1):
                if value.endswith(piece[:size]):
                    value, tail = value[:-size], size
                    break
            if not tail and index + 1 < len(glued) and glued[index + 1]:
                # A value glued to the word after it (`{trace}Tracer`) cut before that word:
                # a cut value cannot be told from a whole other word ("not str").
                return None
            fields[name] = value.strip()
            return Cut(read + tail, fields)
        fields[name] = text[position:found].strip()
        read += len(piece)
        position = found + len(piece)
        if position >= len(text):
            return Cut(read, fields)
    return None  # text goes on past the template's end: another message


def _side_by_side_as_one(pieces: list[str], glued: Sequence[bool]) -> tuple[list[str], list[bool]]:
    """Placeholders side by side (`{what_aval}{name_str}`) are one value, as the template's regex
    reads them (one group, one name): the empty piece between them goes."""
    kept = [i for i, piece in enumerate(pieces) if piece or i in (0, len(pieces) - 1)]
    return [pieces[i] for i in kept], [bool(glued[i]) for i in kept if i < len(glued)]


def after_head_cut(text: str) -> str | None:
    """What follows a leading cut mark (`... got Ellipsis.`), normalised; None when the text has
    no such mark, or is cut at its end too (then neither end of a template can be told)."""
    normalised = _norm(text)
    found = _HEAD_MARK.match(normalised)
    if found is None:
        return None
    rest = normalised[found.end() :]
    if not rest or _CUT_MARKS.search(rest) or rest.startswith((".", "…")):
        return None
    return rest


def follow_end(
    pieces: list[str], names: tuple[str, ...], text: str, glued_before: Sequence[bool] = ()
) -> tuple[Cut, list[str]] | None:
    """The template read backwards from its end as far as `text` (a message whose beginning was
    left out, its mark removed) goes: `follow` on both reversed. The text's end is the template's
    end (its final full stop optional, as the matcher reads it); the cut may fall inside a piece
    or a value. `glued_before[i]`: piece i is followed by its placeholder with no space or mark
    between (`got{x}`): a value cut there cannot be told from a whole word. Returns the reading
    and the literal text read, piece by piece, for the matcher's rules on what says enough."""
    if not pieces:
        return None
    last = pieces[-1]
    if last.endswith(".") and not text.endswith("."):
        pieces = [*pieces[:-1], last[:-1].rstrip()]
    backwards = [piece[::-1] for piece in reversed(pieces)]
    flags = list(glued_before) + [False] * (len(pieces) - len(glued_before))
    glued = [False] + [flags[len(pieces) - 1 - i] for i in range(1, len(pieces))]
    cut = follow(backwards, names[::-1], text[::-1], glued)
    if cut is None:
        return None
    read: list[str] = []
    remaining = cut.read
    for piece in backwards:
        taken = piece[: min(len(piece), remaining)]
        if taken:
            read.append(taken[::-1])
        remaining -= len(taken)
        if remaining <= 0:
            break
    fields = {name: value[::-1] for name, value in cut.fields.items()}
    return Cut(cut.read, fields), read[::-1]
