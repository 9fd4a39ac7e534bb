"""Message text -> catalog entry plus the values of its {placeholders}.

Templates become anchored regular expressions (literal text escaped, whitespace runs loose,
placeholders lazy); a template is only tried when its literal prefix or its longest literal piece
is in the message, which keeps matching fast across thousands of templates. When no template or
pattern matches, rapidfuzz compares the message with the templates of the same exception class and
accepts only close scores: a message that matches nothing well gets no entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from jaxerr_ls.catalog.inside import Inside
from jaxerr_ls.catalog.loglines import header_file, header_starts, is_generated_log, logged_by
from jaxerr_ls.catalog.mlir import carried_class, is_diagnostic
from jaxerr_ls.catalog.model import PLACEHOLDER as _PLACEHOLDER
from jaxerr_ls.catalog.model import Catalog, Entry, Wording
from jaxerr_ls.catalog.partial import (
    MIN_READ,
    after_head_cut,
    enough_read,
    follow,
    follow_end,
)
from jaxerr_ls.catalog.specific import says_enough
from jaxerr_ls.catalog.templates import (
    PIECES,
    WORD_END,
    Match,
    Template,
    args_message,
    build_template,
    cut_pieces,
    glued_before,
    key_message,
    norm,
    same_class,
    segment_template,
    short_class,
)
from jaxerr_ls.catalog.xla import LIBRARY as XLA
from jaxerr_ls.catalog.xla import (
    RUNTIME_CLASSES,
    looks_like_status,
    runtime_class,
    segment_starts,
    strip_status,
)

# Only the head of a message is matched: JAX appends notes, and huge messages must stay cheap.
MAX_MESSAGE = 4000
FUZZY_CUTOFF = 88
# A message cut short that begins a template (`catalog.partial`): sure of the error, not whole.
CUT_SCORE = 95
# A cut message read by a template that opens with a value: that value's longest reading.
MAX_LEADING_VALUE = 40
# How much of such a template's first words a cut message must hold to be read by it.
_PROBE = 16
# A cut shorter than `partial.MIN_READ`, printed with its class, names its entry when no other
# entry's template reads as far, of any class (flax#765's "In setup, assign names of Modules
# via"): about five words. Without a class, a phrase that short may be anyone's.
MIN_READ_ALONE = 24
# Less when the text holds the template's whole opening and a value after it: a title or a
# sentence quoting a message up to its first value (jax#18851's "No replication rule for
# erf_inv"), a cut where the message itself pauses.
MIN_READ_ALONE_TO_VALUE = 16
# ... when that value ends the message's first sentence or clause.
_SENTENCE_END = re.compile(r"^['\"`)]?[.;:](?:\s|$)")

# A line break with no space on either side, in the middle of a word: a terminal or a
# thread's rendering wrapped a long line where it was full.
_MID_WORD_WRAP = re.compile(r"(?<=[\w.])\n(?=[\w.])")
# Words older releases misspelt in a message later releases print corrected: jaxlib's C++ of
# 2021-22, "Non-hashable static arguments are not supported. An error occured ...".
_MISSPELT = {"occured": "occurred"}
_MISSPELLING = re.compile(r"\b(?:" + "|".join(_MISSPELT) + r")\b")


def respelled(text: str) -> str:
    """The text with the misspellings of older releases corrected (`_MISSPELT`)."""
    return _MISSPELLING.sub(lambda found: _MISSPELT[found.group(0)], text)


def _line_starts(text: str) -> list[int]:
    return [found.end() for found in re.finditer(r"\n", text)]


def _by_log_header(
    text: str, start: int, hits: list[tuple[Template, dict[str, str]]]
) -> list[tuple[Template, dict[str, str]]]:
    """The hits at one start, as a C++ log line tells them apart: XLA often logs the text it
    returns as a status (`LOG(FATAL) << X; return Unimplemented(X)`). After a log header
    (`E ... cuda_dnn.cc:439] `) the generated log entries win over statuses of the same text,
    and of them those the header's file logs; elsewhere a status wins over a log entry.
    Curated entries are always kept (they rank above generated ones)."""
    logs = [hit for hit in hits if is_generated_log(hit[0].entry)]
    if not logs:
        return hits
    curated = [hit for hit in hits if hit[0].entry.curated]
    file = header_file(text, start)
    if file is None:
        others = [hit for hit in hits if not is_generated_log(hit[0].entry)]
        return others or hits
    same_file = [hit for hit in logs if logged_by(hit[0].entry, file)]
    return curated + (same_file or logs)


def _most_common_of(short: dict[str, Match | None]) -> Match | None:
    """A short cut that begins several entries' wordings (`Non-hashable static arguments`), all
    of the class printed: the most common curated entry of them names the family, and says so
    (`Match.shared`); None when one is of another class or none is curated."""
    found = [match for match in short.values() if match is not None]
    curated = [match for match in found if match.entry.curated]
    if len(found) < len(short) or not curated:
        return None
    chosen = min(curated, key=lambda match: (-match.entry.frequency, match.entry.id))
    return replace(chosen, shared=len(short))


class Matcher:
    """Compiled once per catalog; `match` is pure and cheap."""

    def __init__(self, catalog: Catalog, release: str | None = None) -> None:
        self.catalog = catalog
        # Releases before the main index (catalog/older.py): built on the first message the
        # current wordings do not match; False when the catalog has none.
        self._older: Matcher | None | bool = None
        # Entries the newest catalogued release still raises rank above entries of older
        # releases only, when both match (the same error reworded or moved in JAX's source).
        self._newest = catalog.jax_version
        # The user's JAX release: its wording wins when two releases' wordings both match.
        # Unknown: the newest catalogued release (an old-only wording should not win today's text).
        self.release = release or catalog.jax_version or None
        self._regexes: dict[str, re.Pattern[str]] = {}
        self.templates: list[Template] = []
        self.patterns: list[tuple[Entry, re.Pattern[str]]] = []
        # XLA's and jaxlib's generated messages: thousands, tried only on runtime errors, built
        # on the first one (the server's start and JAX's own errors never pay for them).
        self._below_entries: list[Entry] = []
        self._below: list[tuple[str, Entry, Wording | None]] | None = None
        self._below_built: dict[tuple[str, str], tuple[Template, str] | None] = {}
        # class printed ("" for none) -> first word -> cut readings of the templates below
        self._below_cut: dict[str, dict[str, list[tuple[Template, list[str], list[bool]]]]] = {}
        self._below_ids: frozenset[str] | None = None
        for entry in catalog.entries:
            if entry.library == XLA and not entry.curated:
                self._below_entries.append(entry)
                continue
            # Python's own wording (`python_worded`) names no error by itself: sites do.
            template = None if entry.python_worded else build_template(entry)
            if template is not None:
                self.templates.append(template)
            # Older releases' wordings of the same error reach the same entry.
            for wording in entry.wordings:
                if wording.message != entry.message:
                    older = build_template(entry, wording)
                    if older is not None:
                        self.templates.append(older)
            for pattern in entry.patterns:
                self.patterns.append((entry, re.compile(pattern, re.DOTALL | re.MULTILINE)))
        self._by_word: dict[str, list[Template]] = {}
        self._last_words: dict[str, list[tuple[Template, list[str], list[bool]]]] | None = None
        self._floating: list[Template] = []
        self._floating_cut: list[tuple[Template, list[str], list[bool]]] | None = None
        self._inside: Inside | None = None
        for template in self.templates:
            if template.prefix and template.whole_word:
                self._by_word.setdefault(template.prefix.split(" ", 1)[0], []).append(template)
            else:
                self._floating.append(template)
        self._fuzzy: dict[str, list[tuple[str, Entry]]] = {}
        for template in self.templates:
            text = norm(_PLACEHOLDER.sub(" ", template.message.split("\n", 1)[0]))
            self._fuzzy.setdefault(short_class(template.entry.exception), []).append(
                (text, template.entry)
            )

    def fuzzy_choices(self) -> dict[str, list[tuple[str, Entry]]]:
        """Per exception class, the texts the fuzzy fallback compares with (the site ships them)."""
        return {cls: list(choices) for cls, choices in self._fuzzy.items()}

    def _candidates(self, normalised: str) -> Iterable[Template]:
        first = normalised.split(" ", 1)[0] if normalised else ""
        for template in self._by_word.get(first, ()):
            if normalised.startswith(template.prefix):
                yield template
        for template in self._floating:
            if template.longest in normalised and normalised.startswith(template.prefix):
                yield template

    def _regex(self, template: Template) -> re.Pattern[str]:
        regex = self._regexes.get(template.regex_source)
        if regex is None:
            regex = re.compile(template.regex_source, re.DOTALL)
            self._regexes[template.regex_source] = regex
        return regex

    def in_release(self, template: Template) -> bool:
        """Whether the user's release prints this wording (unknown release or releases: yes)."""
        if self.release is None:
            return True
        versions = template.versions or template.entry.versions
        return not versions or self.release in versions

    def live(self, entry: Entry) -> bool:
        """The newest catalogued release raises it (or its releases are not recorded)."""
        return not entry.versions or not self._newest or self._newest in entry.versions

    def _below_templates(self) -> list[tuple[str, Entry, Wording | None]]:
        """(longest literal piece, entry, wording) of every template below JAX's Python: cheap
        to list; a template is compiled only when its longest piece is in a message."""
        if self._below is None:
            built: list[tuple[str, Entry, Wording | None]] = []
            # (Python's or a tool's own wording, `python_worded`, names nothing by itself.)
            curated = [
                e
                for e in self.catalog.entries
                if e.library == XLA and e.curated and not e.python_worded
            ]
            for entry in curated + self._below_entries:
                for wording in (None, *entry.wordings):
                    text = strip_status(entry.message if wording is None else wording.message)
                    pieces = [norm(p) for p in PIECES.split(text)]
                    longest = max(pieces, key=len).replace("{{", "{").replace("}}", "}")
                    if len(longest) >= 4:
                        built.append((longest, entry, wording))
            self._below = built
        return self._below

    def below_templates(self, cls: str = "") -> list[Template]:
        """Every template below JAX's Python (of the class printed, if one is given), compiled
        (the site's search ships them all)."""
        out: list[Template] = []
        for _, entry, wording in self._below_templates():
            printed = short_class((wording.exception if wording else "") or entry.exception)
            if cls and not same_class(printed, cls):
                continue
            key_of = (entry.id, wording.message if wording else "")
            if key_of not in self._below_built:
                self._below_built[key_of] = segment_template(entry, wording)
            built = self._below_built[key_of]
            if built is not None:
                out.append(built[0])
        return out

    def below(self, match: Match) -> bool:
        """The match is of an error below JAX's Python (an XLA status, a log line)."""
        if self._below_ids is None:
            self._below_ids = frozenset(entry.id for _, entry, _ in self._below_templates())
        return match.entry.id in self._below_ids

    def _ranked_below(self, text: str) -> Iterator[tuple[str, tuple[int, ...], Match]]:
        """Templates of errors below JAX's Python, tried where each wrapped status starts; only
        the innermost status that matches is kept: it says what failed, the wrappers around it
        only where (`Failed to execute XLA Runtime executable: {...}`)."""
        normalised = norm(text)
        starts: list[int] | None = None
        # A log entry's text starts a log line (past its header) or a line: never inside a
        # status, whose wrapped text is a status too (`... failed: {x} symbol not found.`).
        line_starts: frozenset[int] | None = None
        hits: list[tuple[int, Template, dict[str, str]]] = []
        for longest, entry, wording in self._below_templates():
            if longest not in normalised:
                continue
            key_of = (entry.id, wording.message if wording else "")
            if key_of not in self._below_built:
                self._below_built[key_of] = segment_template(entry, wording)
            built = self._below_built[key_of]
            if built is None:
                continue
            template = built[0]
            regex = self._regex(template)
            starts = segment_starts(text) if starts is None else starts
            tried = starts
            if is_generated_log(entry):
                if line_starts is None:
                    line_starts = frozenset((0, *header_starts(text), *_line_starts(text)))
                tried = [start for start in starts if start in line_starts]
            for start in reversed(tried):
                found = regex.match(text, start)
                if found is not None:
                    values = (g.strip() for g in found.groups())
                    hits.append((start, template, dict(zip(template.names, values, strict=False))))
                    break
        innermost = max((start for start, _, _ in hits), default=0)
        chosen = _by_log_header(text, innermost, [h[1:] for h in hits if h[0] == innermost])
        for template, fields in chosen:
            key = self._template_key(template)
            # A Mosaic/Triton diagnostic says what failed; the wrapper's pattern around it only
            # where (`Mosaic failed to compile TPU kernel: {reason}`): it ranks above patterns.
            key = (2, *key[1:]) if is_diagnostic(template.entry) else key
            yield template.cls, key, Match(template.entry, fields, 100)

    def _template_key(self, template: Template) -> tuple[int, ...]:
        """A template hit's rank (see `_ranked`): below every pattern hit."""
        return (
            0,
            template.authored,
            self.in_release(template),
            template.current,
            self.live(template.entry),
            template.literal_len,
            template.entry.curated,
            not template.entry.patterns,
        )

    def _ranked(
        self, text: str, runtime: bool = False
    ) -> Iterator[tuple[str, tuple[int, ...], Match]]:
        """Every pattern or template that matches, with the class that prints it and its rank:
        pattern hit, a curator's older wording, the user's release's wording, the entry's own
        (newest) wording above older ones other entries share, entries the newest release
        raises, literal specificity, curated, then entries without patterns (a sub-case entry
        whose patterns missed should not win on a shared template)."""
        for entry, pattern in self.patterns:
            found = pattern.search(text)
            if found is not None:
                specificity = len(found.group(0)) - sum(len(g or "") for g in found.groups())
                fields = {k: v for k, v in found.groupdict().items() if v is not None}
                key = (1, 1, 1, 1, 1, specificity, entry.curated, 0)
                for printed_by in (entry.exception, *entry.other_classes):
                    yield short_class(printed_by), key, Match(entry, fields, 100)
        for template in self._candidates(norm(text)):
            found = self._regex(template).match(text)
            # A template opening with a value (a name: `{name} requires ...`) reads it on the
            # message's first line, without a colon: a value running over lines or holding one
            # took what came before the message (a shell command, `ERROR:root:` of a log).
            if found is not None and not template.prefix and _LEADING_TAKEN.search(found[1] or ""):
                continue
            if found is not None:
                fields = dict(
                    zip(template.names, (g.strip() for g in found.groups()), strict=False)
                )
                yield template.cls, self._template_key(template), Match(template.entry, fields, 100)
        if runtime:
            yield from self._ranked_below(text)

    def hits(self, message: str, runtime: bool = False) -> list[tuple[tuple[int, ...], Match]]:
        """Every entry whose pattern or template matches the message, whatever its class, with
        its rank: for text whose class was not copied (`jaxerr_ls.catalog.loose`). `runtime`
        tries the errors below JAX's Python even where the text does not start like one (a log
        whose status is on a later line)."""
        text = message[:MAX_MESSAGE]
        runtime = runtime or looks_like_status(text, wrapped=False)
        return [(key, found) for _, key, found in self._ranked(text, runtime)]

    def match(self, exception: str, message: str) -> Match | None:
        """The best entry for an exception class and message, or None when nothing fits well:
        the same class first, then the rank of `_ranked` (the first of equals wins). When no
        current wording of the same class matches, the wordings of releases before the main
        index are tried (loaded then) before another class's text or a fuzzy guess; and a
        message a paste wrapped in the middle of a word (`jax.ops.index\n_add`), joined; one an
        older release misspelt, respelt (`respelled`)."""
        found = self._match_text(exception, message)
        if found is None or found.score < 100:
            for variant in (_MID_WORD_WRAP.sub("", message), respelled(message)):
                if variant == message:
                    continue
                again = self._match_text(exception, variant)
                if again is not None and again.score >= 100:
                    return again
        return found

    def _match_text(self, exception: str, message: str) -> Match | None:
        inner = args_message(message[:MAX_MESSAGE]) or key_message(exception, message[:MAX_MESSAGE])
        if inner is not None:
            found = self._match_text(exception, inner)
            if found is not None:
                return found
        found = self._match(exception, message)
        if found is not None and found.score >= 100:
            return found
        older = self.older_matcher()
        if older is not None:
            again = older._match(exception, message, fuzzy=found is None)
            # An older wording of a current entry outranks what matched less well; an error
            # only older releases raised must be of the class the text names, and wins only
            # over a fuzzy guess (a current entry's text under another class says more).
            if again is not None and (found is None or again.score > found.score):
                current = again.entry.id in self.catalog.by_id
                guess = found is None or found.score < 85
                if current or (again.score >= 100 and guess):
                    return again
        return found

    def older_matcher(self) -> Matcher | None:
        """The matcher of the wordings only releases before the main index printed (built on
        first use), or None when the catalog has none."""
        if self._older is None:
            from jaxerr_ls.catalog.older import older_catalog

            catalog = older_catalog(self.catalog)
            self._older = Matcher(catalog) if catalog is not None else False
            if isinstance(self._older, Matcher):
                self._older._older = False
        return self._older if isinstance(self._older, Matcher) else None

    def _match(self, exception: str, message: str, fuzzy: bool = True) -> Match | None:
        text = message[:MAX_MESSAGE]
        cls = short_class(exception)
        # `ValueError: INVALID_ARGUMENT: ...` is XLA's (older jaxlib) or tensorstore's: either.
        carried = carried_class(cls, text) or runtime_class(cls, text)
        best: tuple[tuple[int, ...], Match] | None = None
        inner: tuple[tuple[int, ...], Match] | None = None
        runtime = carried in RUNTIME_CLASSES or not cls or looks_like_status(text)
        for printed_by, rank, found in self._ranked(text, runtime):
            key = (same_class(printed_by, cls) or same_class(printed_by, carried), *rank)
            if best is None or key > best[0]:
                best = (key, found)
            if runtime and key[0] and (inner is None or key > inner[0]) and self.below(found):
                inner = (key, found)
        if best is not None and inner is not None and wraps(best[1].entry):
            # A generated wrapper (`Unable to initialize backend '{platform}': {err}`) says only
            # where; the status inside it says what failed.
            return inner[1]
        if best is not None and (best[0][0] or not cls):
            return best[1]
        if not runtime:
            # jaxlib's C++ raises Python errors too (`ValueError`, `TypeError`): its messages are
            # tried, for the same class only, once nothing of JAX's own class matched (the
            # site's search ranks them the same way).
            below = [
                (rank, found)
                for printed_by, rank, found in self._ranked_below(text)
                if printed_by == cls
            ]
            if below:
                return max(below, key=lambda hit: hit[0])[1]
        if best is not None:
            # Another class printed the same text (a re-raise, a wrapper): still likely, less sure.
            return Match(best[1].entry, best[1].fields, 85)
        # A cut message names its error unless the text is, nearly letter for letter, another
        # template's whole literal text (a generic first line some entry extends).
        cut = (
            self.match_cut(cls, text)
            # jaxlib's C++ raises Python's classes too (`ValueError: Custom node type mismatch`).
            or self.match_cut_below(cls, text)
            or self.match_cut_start(cls, text)
        )
        close = self._fuzzy_match(cls, norm(text.split("\n", 1)[0])) if fuzzy or cut else None
        if cut is not None and (close is None or close.score <= CUT_SCORE):
            return cut
        return close if fuzzy else None

    def match_cut(self, cls: str, text: str) -> Match | None:
        """A message cut short that begins one template far enough to tell (`catalog.partial`),
        of the class printed: the best-ranked template that reads the most of it."""
        normalised = norm(respelled(text))
        # Templates opening with a value (`{func_name}() output pytree structure must match`)
        # too, when the text gives that value a word or two: the literal text read must still
        # tell them apart.
        candidates = [
            (template, *cut_pieces(template.message))
            for template in self._by_word.get(normalised.split(" ", 1)[0], ())
        ]
        floating = [
            found
            for found in self._floating_pieces()
            # Reading 40 literal characters means reading the first piece's start at least.
            if found[1][1][:_PROBE] in normalised
        ]
        return self._best_cut(cls, normalised, (*candidates, *floating))

    def _best_cut(
        self,
        cls: str,
        normalised: str,
        candidates: Iterable[tuple[Template, list[str], list[bool]]],
    ) -> Match | None:
        """Of the templates (with their cut pieces) the text begins, of the class printed, the
        one that reads the most of it, best-ranked among equals."""
        best: tuple[tuple[int, ...], Match] | None = None
        # Shorter cuts, of any class: one entry alone reading that far still tells it apart.
        short: dict[str, Match | None] = {}
        for template, pieces, glued in candidates:
            cut = follow(pieces, template.names, normalised, glued)
            if cut is None:
                continue
            if not pieces[0] and len(cut.fields.get(template.names[0], "")) > MAX_LEADING_VALUE:
                continue
            to_value = (
                len(pieces) > 1
                and cut.read == len(pieces[0])
                and bool(cut.fields)
                and _SENTENCE_END.match(pieces[1]) is not None
            )
            if cut.read >= (MIN_READ_ALONE_TO_VALUE if to_value else MIN_READ_ALONE):
                printed = not cls or same_class(template.cls, cls)
                short.setdefault(template.entry.id, None)
                if printed:
                    short[template.entry.id] = Match(
                        template.entry, cut.fields, CUT_SCORE, cut=True
                    )
            if (cls and not same_class(template.cls, cls)) or not enough_read(pieces, cut):
                continue
            key = (cut.read, *self._template_key(template))
            if best is None or key > best[0]:
                best = (key, Match(template.entry, cut.fields, CUT_SCORE, cut=True))
        if best is None and cls and len(short) == 1:
            return next(iter(short.values()))
        if best is None and cls and len(short) > 1:
            return _most_common_of(short)
        return best[1] if best is not None else None

    def match_cut_below(self, cls: str, text: str) -> Match | None:
        """A runtime error's message cut short (XLA's, jaxlib's, a GPU library's), read as
        `match_cut` reads JAX's, its status code aside (`INVALID_ARGUMENT: ` or none)."""
        # Built per class printed, on its first cut message: every runtime class shares one
        # (~0.5 s, thousands of templates); Python's classes jaxlib raises hold a few dozen.
        key = "XlaRuntimeError" if cls in RUNTIME_CLASSES else cls
        if key not in self._below_cut:
            by_word: dict[str, list[tuple[Template, list[str], list[bool]]]] = {}
            for template in self.below_templates(key):
                pieces, glued = cut_pieces(strip_status(template.message))
                if pieces[0]:
                    first = pieces[0].split(" ", 1)[0]
                    by_word.setdefault(first, []).append((template, pieces, glued))
            self._below_cut[key] = by_word
        normalised = norm(strip_status(text.strip()))
        below = self._below_cut[key].get(normalised.split(" ", 1)[0], ())
        return self._best_cut(cls, normalised, below)

    def _floating_pieces(self) -> list[tuple[Template, list[str], list[bool]]]:
        """The templates that open with a value, with their pieces as a cut message is read
        (`templates.cut_pieces`), built on the first cut message."""
        if self._floating_cut is None:
            read = [(template, *cut_pieces(template.message)) for template in self._floating]
            # Only those with words after the opening value: nothing else can be read.
            self._floating_cut = [found for found in read if len(found[1]) > 1 and found[1][1]]
        return self._floating_cut

    def match_cut_start(self, cls: str, text: str) -> Match | None:
        """A message whose beginning the user left out (`... got Ellipsis.`), of the class
        printed: what follows the mark ends one template, read backwards (`partial.follow_end`)
        far enough to tell and by words that say enough (`specific.says_enough`, the rule a
        generated template's whole text meets); the best-ranked that reads the most."""
        rest = after_head_cut(text)
        if rest is None:
            return None
        best: tuple[tuple[int, ...], Match] | None = None
        by_end = self._by_last_word()
        words = {word.rstrip(WORD_END) for word in rest.split(" ")}
        for word in sorted(words & by_end.keys()):
            for template, pieces, glued in by_end[word]:
                if cls and not same_class(template.cls, cls):
                    continue
                found = follow_end(pieces, template.names, rest, glued)
                if found is None:
                    continue
                cut, read = found
                # What was left out stands before the words read, as a value would: Python's
                # `'{}' object cannot be interpreted as an integer`, read from its end, stays
                # Python's.
                if cut.read < MIN_READ or not says_enough(["", *read]):
                    continue
                key = (cut.read, *self._template_key(template))
                if best is None or key > best[0]:
                    match = Match(template.entry, cut.fields, CUT_SCORE, cut=True, cut_start=True)
                    best = (key, match)
        return best[1] if best is not None else None

    def match_inside(self, text: str) -> Match | None:
        """Words quoted from inside one entry's message, without its class (`inside.py`)."""
        if self._inside is None:
            self._inside = Inside([*self.templates, *self.below_templates()])
        return self._inside.match(text, CUT_SCORE)

    def _by_last_word(self) -> dict[str, list[tuple[Template, list[str], list[bool]]]]:
        """Templates by the last word of their literal text, with their cut pieces: built the
        first time a message cut at its start is read (a rare paste)."""
        if self._last_words is None:
            index: dict[str, list[tuple[Template, list[str], list[bool]]]] = {}
            for template in self.templates:
                if template.literal_len < MIN_READ:
                    continue
                pieces, _ = cut_pieces(template.message)
                text = " ".join(pieces).rstrip(" " + WORD_END)
                word = text.rsplit(" ", 1)[-1].rstrip(WORD_END)
                if word:
                    glued = glued_before(template.message)
                    index.setdefault(word, []).append((template, pieces, glued))
            self._last_words = index
        return self._last_words

    def _fuzzy_match(self, cls: str, first_line: str) -> Match | None:
        choices = self._fuzzy.get(cls)
        if cls in RUNTIME_CLASSES:
            choices = [c for name in sorted(RUNTIME_CLASSES) for c in self._fuzzy.get(name, [])]
        if not choices or not first_line:
            return None
        # Imported here: only messages no template matches need it, and the server starts faster.
        from rapidfuzz import fuzz, process

        found = process.extractOne(
            first_line[:300],
            [text for text, _ in choices],
            scorer=fuzz.ratio,
            score_cutoff=FUZZY_CUTOFF,
        )
        if found is None:
            return None
        _, score, position = found
        return Match(choices[position][1], {}, int(score))


# What a leading value never holds (see `_ranked`).
_LEADING_TAKEN = re.compile(r"[\n:]")
# A message that ends in what it wraps: `...: {err}`.
_WRAPPED_TAIL = re.compile(r": \{[^{}]*\}\s*$")


def wraps(entry: Entry) -> bool:
    """A generated message that ends in what it wraps (`Unable to initialize backend
    '{platform}': {err}`): the status inside says more."""
    return not entry.curated and _WRAPPED_TAIL.search(entry.message) is not None


def match_message(catalog: Catalog, exception: str, message: str) -> Match | None:
    """One-off matching; build a `Matcher` once to match many messages."""
    return Matcher(catalog).match(exception, message)
