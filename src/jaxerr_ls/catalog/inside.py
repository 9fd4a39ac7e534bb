"""A phrase quoted from inside a message: neither its beginning nor its end.

Users quote the words that struck them, in a sentence of their own or as an issue's title
("CUDA-enabled jaxlib is not installed", "To ignore this failure and try to use a fallback
algorithm ..."), without the class and without the message's opening words. Such a phrase names
its error when it is read inside one entry's literal text and no other's: from the piece of a
template it starts in, on through the pieces and values after it (`partial.follow`), far enough
that a few common words never stand for a message.

Only for a text printed without its class: with a class, the message's own beginning is there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from jaxerr_ls.catalog.partial import follow, strip_cut_marks
from jaxerr_ls.catalog.templates import Match, Template, cut_pieces

# Literal characters the phrase must share with one template: half a line, about six words.
MIN_INSIDE = 30
# The phrase's opening looked up in each template's pieces before it is followed.
_PROBE = 24


@dataclass(frozen=True)
class _Pieces:
    template: Template
    pieces: list[str]
    glued: list[bool]


class Inside:
    """The templates' pieces, indexed by their words once, the first time a phrase is looked up."""

    def __init__(self, templates: Iterable[Template]) -> None:
        self._templates = list(templates)
        self._read: list[_Pieces] = []
        self._by_word: dict[str, list[int]] | None = None

    def _index(self) -> dict[str, list[int]]:
        if self._by_word is None:
            self._by_word = {}
            for template in self._templates:
                read = _Pieces(template, *cut_pieces(template.message))
                words = {w for p in read.pieces if len(p) >= _PROBE for w in p.split(" ")}
                if words:
                    self._read.append(read)
                for word in words:
                    self._by_word.setdefault(word, []).append(len(self._read) - 1)
        return self._by_word

    def match(self, text: str, score: int) -> Match | None:
        """The one entry whose literal text the phrase (its first line) is read inside, past its
        first word; None when no entry or several read it."""
        phrase = strip_cut_marks(text.split("\n", 1)[0])
        if len(phrase) < MIN_INSIDE:
            return None
        probe = phrase[:_PROBE]
        # A whole word of the probe (not its first or last, which a cut may have split) finds
        # the pieces that may hold it.
        whole = probe.split(" ")[1:-1]
        if not whole:
            return None
        candidates = self._index().get(max(whole, key=len), [])
        found: dict[str, Match] = {}
        for number in candidates:
            read = self._read[number]
            for index, piece in enumerate(read.pieces):
                at = piece.find(probe)
                if at < 0 or (index == 0 and at == 0):
                    continue  # a message's beginning is `match_cut`'s
                pieces = [piece[at:], *read.pieces[index + 1 :]]
                names = read.template.names[index:]
                cut = follow(pieces, names, phrase, read.glued[index:])
                if cut is not None and cut.read >= MIN_INSIDE:
                    entry = read.template.entry
                    match = Match(entry, cut.fields, score, cut=True, inside=True)
                    found.setdefault(entry.id, match)
                    break
            if len(found) > 1:
                return None
        return next(iter(found.values()), None)
