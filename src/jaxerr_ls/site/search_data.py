"""The data the site's in-browser search matches against, made from the CLI's own `Matcher`.

The regular expressions are the ones `catalog.match` compiles for the command line, translated
only where JavaScript spells the same thing differently (`(?P<name>` -> `(?<name>`, `\\A`), so
the browser and the CLI cannot drift apart: change the matcher and the site follows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from jaxerr_ls.catalog.classes import class_table
from jaxerr_ls.catalog.loglines import LOG_HEADER, MAX_HEADERS, is_generated_log
from jaxerr_ls.catalog.loose import MAX_PRINTED_LINES, MIN_PRINTED_LINE
from jaxerr_ls.catalog.match import CUT_SCORE, FUZZY_CUTOFF, MAX_MESSAGE, Matcher, wraps
from jaxerr_ls.catalog.mlir import CARRIERS as MLIR_CARRIERS
from jaxerr_ls.catalog.mlir import WRAPPER as MOSAIC_WRAPPER
from jaxerr_ls.catalog.mlir import is_diagnostic
from jaxerr_ls.catalog.model import LIBRARIES, WRAPPER_NOTE
from jaxerr_ls.catalog.partial import MIN_READ
from jaxerr_ls.catalog.templates import cut_pieces, short_class
from jaxerr_ls.catalog.xla import (
    MAX_SEGMENTS,
    RUNTIME_CLASSES,
    STATUS_PREFIX,
    STATUS_VALUE_CARRIERS,
)
from jaxerr_ls.upgrades.entries import PRIVATE_NAME, SUBMODULE_NOT_IMPORTED, UPGRADE_ENTRIES
from jaxerr_ls.upgrades.history import load_history
from jaxerr_ls.upgrades.libraries import library_history
from jaxerr_ls.upgrades.resolve import missing_names, removed_words

# The global the data file assigns; `search.js` reads it (fetch() of a local file is blocked
# from file://, a <script src> is not).
GLOBAL = "JAXERR_SEARCH"
_ESCAPES = {"A": r"(?<![\s\S])", "Z": r"(?![\s\S])"}
_UNSUPPORTED = re.compile(r"\(\?[aiLmsux-]+[:)]")


class UntranslatableRegex(ValueError):
    """A Python regular expression uses a construct JavaScript lacks."""


def js_regex(source: str) -> str:
    """The JavaScript spelling of a Python regular expression (for the flags the matcher uses)."""
    if _UNSUPPORTED.search(source):
        raise UntranslatableRegex(f"inline flags are not translated: {source[:80]!r}")
    out: list[str] = []
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\" and index + 1 < len(source):
            escaped = source[index + 1]
            out.append(_ESCAPES.get(escaped, "\\" + escaped))
            index += 2
            continue
        if source.startswith("(?P<", index):
            out.append("(?<")
            index += 4
            continue
        if source.startswith("(?P=", index):
            end = source.index(")", index)
            out.append(r"\k<" + source[index + 4 : end] + ">")
            index = end + 1
            continue
        out.append(char)
        index += 1
    return "".join(out)


def search_data(matcher: Matcher, apis: Sequence[str] = ()) -> dict[str, object]:
    """Entries, templates (in the matcher's order: ties go to the first, as in Python), curated
    patterns and the fuzzy fallback's texts; entries are referred to by position. `apis` are the
    API pages, for searches by name."""
    catalog = matcher.catalog
    position = {entry.id: n for n, entry in enumerate(catalog.entries)}
    entries = [
        [
            entry.id,
            entry.exception,
            entry.title,
            int(entry.curated),
            " ".join(entry.apis[:3]),
            int(wraps(entry)),
        ]
        for entry in catalog.entries
    ]
    templates = [
        [
            position[t.entry.id],
            js_regex(t.regex_source),
            t.prefix,
            int(t.whole_word),
            t.longest,
            t.literal_len,
            list(t.names),
            # The matcher's release ranking (curator's wording, user's release, own wording,
            # newest release) as one number that orders like the Python tuple.
            8 * t.authored + 4 * matcher.in_release(t) + 2 * t.current + matcher.live(t.entry),
            t.cls,
            # literal pieces and whether each is glued to its value, for messages cut short
            # (catalog/partial.py); only templates
            # filed by their first word are tried for those
            *(cut_pieces(t.message) if t.prefix and t.whole_word else ([], [])),
        ]
        for t in matcher.templates
    ]
    # A pattern's row ends with the other classes that print its entry's text (`other_classes`).
    patterns = [
        [position[entry.id], js_regex(p.pattern), [short_class(c) for c in entry.other_classes]]
        for entry, p in matcher.patterns
    ]
    # Errors below JAX's Python: tried where each wrapped status starts (see catalog/xla.py).
    below = [
        [
            position[t.entry.id],
            js_regex(t.regex_source),
            t.longest,
            t.literal_len,
            list(t.names),
            8 * t.authored + 4 * matcher.in_release(t) + 2 * t.current + matcher.live(t.entry),
            t.cls,
            # A C++ log message (catalog/loglines.py): matched only where a line or a log line's
            # text starts, and ranked by the files that log it (their basenames).
            sorted({PurePosixPath(s.file).name for s in t.entry.raised_at})
            if is_generated_log(t.entry)
            else 0,
            int(t.entry.curated),
            # A Mosaic/Triton diagnostic (catalog/mlir.py): ranks above the wrapper's pattern.
            int(is_diagnostic(t.entry)),
        ]
        for t in matcher.below_templates()
    ]
    fuzzy = {
        cls: [[text, position[entry.id]] for text, entry in choices]
        for cls, choices in matcher.fuzzy_choices().items()
    }
    return {
        "upgrades": _upgrades(position),
        "classes": _classes(matcher, position),
        "maxMessage": MAX_MESSAGE,
        "minRead": MIN_READ,
        "cutScore": CUT_SCORE,
        "printedLines": [MAX_PRINTED_LINES, MIN_PRINTED_LINE],
        "wrapperNote": WRAPPER_NOTE,
        "fuzzyCutoff": FUZZY_CUTOFF,
        "entries": entries,
        "hasPatterns": sorted({position[entry.id] for entry, _ in matcher.patterns}),
        "templates": templates,
        "patterns": patterns,
        "below": below,
        "runtimeClasses": sorted(RUNTIME_CLASSES),
        "valueCarriers": sorted(STATUS_VALUE_CARRIERS),
        "mlirCarriers": sorted(MLIR_CARRIERS),
        "mosaicWrapper": js_regex(MOSAIC_WRAPPER.pattern),
        "statusPrefix": js_regex(STATUS_PREFIX.pattern),
        "maxSegments": MAX_SEGMENTS,
        # Python's `(?m)` is the JavaScript flag "m" (match.js adds it).
        "logHeader": js_regex(LOG_HEADER.pattern.removeprefix("(?m)")),
        "maxHeaders": MAX_HEADERS,
        "fuzzy": fuzzy,
        "apis": list(apis),
    }


def _classes(matcher: Matcher, position: dict[str, int]) -> dict[str, object]:
    """The class fallback's table (`catalog/classes.py`), entries by position."""
    table = class_table(matcher)
    for key in ("names", "statuses"):
        named = table[key]
        assert isinstance(named, dict)
        table[key] = {k: position[v] for k, v in named.items() if v in position}
    return table


def _upgrades(position: dict[str, int]) -> dict[str, object]:
    """A missing name's entry (removed, removed module, added later), per entry, for JAX and the
    libraries whose API history the catalog holds (`upgrades/resolve.py`, release unknown)."""
    histories = [load_history()]
    histories += [h for h in (library_history(name) for name in LIBRARIES) if h is not None]
    tables: dict[str, dict[int, list[str]]] = {"direct": {}, "whole": {}, "modules": {}}
    unimported: list[str] = []
    words: dict[str, list[object]] = {}  # message -> [names, entry or None]
    for index, history in enumerate(histories):
        found = missing_names(history)
        for key, names in (
            ("direct", found.direct),
            ("whole", found.whole),
            ("modules", found.modules),
        ):
            for name, entry_id in names.items():
                if entry_id in position:
                    tables[key].setdefault(position[entry_id], []).append(name)
        if index == 0:
            unimported = found.unimported  # JAX's own modules (the entry is about JAX's)
            # JAX's words only: the command line reads no library's deprecation table.
            for said, (named, entry_id) in removed_words(history).items():
                words[said] = [named, position.get(entry_id)]
    return {
        "entries": sorted(position[e] for e in UPGRADE_ENTRIES if e in position),
        # A JAX name with a private part (`jax._src...`, `_name`) no history holds.
        "private": position.get(PRIVATE_NAME),
        **{
            key: {str(k): sorted(v) for k, v in sorted(table.items())}
            for key, table in tables.items()
        },
        # `module 'jax.experimental' has no attribute 'sparse'`: a module to import.
        "unimported": {"entry": position.get(SUBMODULE_NOT_IMPORTED), "names": unimported},
        # JAX's deprecation words, which need not spell the name: [names, the removed one's entry].
        "removedWords": words,
    }


def search_script(matcher: Matcher, apis: Sequence[str] = ()) -> str:
    """`search-data.js`: one statement assigning the data to a global."""
    data = json.dumps(search_data(matcher, apis), ensure_ascii=True, separators=(",", ":"))
    # `</` cannot end a script here (loaded by src, but keep it inert if ever inlined).
    inert = data.replace("</", "<\\/")
    return f"window.{GLOBAL}={inert};\n"
