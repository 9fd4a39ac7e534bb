"""Explain `jit() got an unexpected keyword argument 'backend'` from the parameter history: the
releases whose JAX function took that keyword (code written for another JAX), or none (a typo,
with the closest parameters). Pure: a message and its frames in, a match out.

Python words the error itself, naming the callee only by its short name, so the text alone never
says the function is JAX's: the raising line must call it through a JAX module (`jax.jit(`,
`jnp.clip(`, `lax.scan(`), or, with no line to read, the short name must belong to one JAX
function and the keyword to one of its releases.
"""

from __future__ import annotations

import difflib
import gzip
import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from jaxerr_ls.catalog.model import KEYWORD_ENTRY, Catalog
from jaxerr_ls.catalog.templates import Match, short_class
from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.tracebacks.model import Frame
from jaxerr_ls.upgrades.history import (
    _parse_spans,
    normalise,
    release_at_or_before,
    spans_have,
)

HISTORY_FILE = "parameter-history.json.gz"
_UNEXPECTED = re.compile(
    r"(?P<callee>[\w.<>]+)\(\) got an unexpected keyword argument '(?P<keyword>\w+)'"
)
# A JAX name spelt on a line of code: `jax.jit`, `jnp.clip`, `lax.scan`, `jax.numpy.reshape`.
_JAX_NAME = re.compile(r"(?<![\w.])(?:jax|jnp|lax)(?:\.[A-Za-z_]\w*)+")
_METHODS = ("__init__", "__new__", "__call__")


@dataclass(frozen=True)
class KeywordFacts:
    function: str  # the public JAX function (or class) called: "jax.jit"
    keyword: str
    status: str  # "removed", "not-yet" or "never"
    release: str  # the release the answer is for (the user's, else the newest read)
    spans: tuple[tuple[str, str], ...]  # releases whose function took the keyword
    changed_in: str  # the first release without it ("removed"), or with it ("not-yet")
    parameters: tuple[str, ...]  # the keywords the function takes in `release`
    close: tuple[str, ...]  # of those, the ones spelt like the keyword ("never")


@dataclass(frozen=True)
class _Record:
    """One function's history, decoded from its `own|open|kw=range|...` string."""

    own: tuple[tuple[str, str], ...]
    open: tuple[tuple[str, str], ...]
    keywords: dict[str, tuple[tuple[str, str], ...]]


def _decode(text: str) -> _Record:
    own_text, open_text, *keywords = text.split("|")
    own = _parse_spans(own_text, ())
    spans = {}
    for item in keywords:
        keyword, _, span = item.partition("=")
        spans[keyword] = _parse_spans(span, own)
    return _Record(own, _parse_spans(open_text, own), spans)


class ParameterHistory:
    def __init__(self, data: dict[str, object]) -> None:
        releases = data.get("releases", [])
        functions = data.get("functions", {})
        self.releases: tuple[str, ...] = tuple(releases) if isinstance(releases, list) else ()
        # Kept as their strings, decoded on demand (a few are read per error).
        self._functions: dict[str, str] = (
            {k: v for k, v in functions.items() if isinstance(v, str)}
            if isinstance(functions, dict)
            else {}
        )
        self._by_short: dict[str, list[str]] | None = None  # built when a name is looked up

    @lru_cache(maxsize=256)  # noqa: B019 - one history per process, kept for its lifetime
    def _record(self, function: str) -> _Record:
        return _decode(self._functions.get(function, "-|-"))

    def named(self, short: str) -> list[str]:
        """The public functions and classes whose own name is `short`."""
        if self._by_short is None:
            self._by_short = {}
            for name in self._functions:
                self._by_short.setdefault(name.rsplit(".", 1)[-1], []).append(name)
        return self._by_short.get(short, [])

    def knows(self, function: str) -> bool:
        return function in self._functions

    def _spans(self, function: str, keyword: str | None = None) -> tuple[tuple[str, str], ...]:
        record = self._record(function)
        return record.own if keyword is None else record.keywords.get(keyword, ())

    def _has(self, spans: tuple[tuple[str, str], ...], release: str) -> bool:
        return spans_have(spans, release)

    def is_open(self, function: str, release: str) -> bool:
        return self._has(self._record(function).open, release)

    def parameters(self, function: str, release: str) -> tuple[str, ...]:
        keywords = self._record(function).keywords
        return tuple(k for k, spans in keywords.items() if self._has(spans, release))

    def with_keyword(self, function: str, keyword: str) -> bool:
        return bool(self._spans(function, keyword))

    def releases_with(self, function: str, keyword: str) -> int:
        """How many releases' `function` took `keyword`."""
        spans = self._spans(function, keyword)
        return sum(self._has(spans, release) for release in self.releases)

    def facts(self, function: str, keyword: str, version: str | None) -> KeywordFacts | None:
        """What the history says of `function(keyword=...)` failing; None when the release
        compared with takes any keyword, or has the keyword (the error is not JAX's then)."""
        if not self.releases or not self.knows(function):
            return None
        spans = self._spans(function, keyword)
        newest = self.releases[-1]
        own = self._spans(function)
        # No release given: the newest that has the function (a removed one's last).
        release = self._release_for(version) if version else (own[-1][1] or newest)
        if not self._has(own, release) or self.is_open(function, release):
            return None
        if self._has(spans, release):
            if version:
                return None  # the user's release takes it: another function raised this
            # No release given, and the newest takes it: the user's JAX is older.
            first = next(f for f, last in spans if self._has(((f, last),), release))
            release = self._before(first)
            status, changed = "not-yet", first
        elif not spans:
            status, changed = "never", ""
        elif all(version_key(first) > version_key(release) for first, _ in spans):
            status, changed = "not-yet", spans[0][0]
        else:
            ended = [last for _, last in spans if last and version_key(last) < version_key(release)]
            status, changed = "removed", self._after(ended[-1])
        parameters = self.parameters(function, release)
        close = tuple(difflib.get_close_matches(keyword, parameters, n=2, cutoff=0.6))
        return KeywordFacts(function, keyword, status, release, spans, changed, parameters, close)

    def _release_for(self, version: str) -> str:
        return release_at_or_before(self.releases, version)

    def _after(self, release: str) -> str:
        index = self.releases.index(release)
        return self.releases[index + 1] if index + 1 < len(self.releases) else ""

    def _before(self, release: str) -> str:
        index = self.releases.index(release)
        return self.releases[max(index - 1, 0)]


def history_path() -> Path:
    from jaxerr_ls.catalog.load import catalog_dir

    return catalog_dir() / HISTORY_FILE


@lru_cache(maxsize=2)
def load_parameter_history(path: Path | None = None) -> ParameterHistory:
    """The shipped history; an empty one (which knows no function) when missing or bad."""
    try:
        data = json.loads(gzip.decompress((path or history_path()).read_bytes()))
    except (OSError, ValueError, EOFError):
        return ParameterHistory({})
    return ParameterHistory(data if isinstance(data, dict) else {})


def called_function(
    history: ParameterHistory, callee: str, keyword: str, frames: tuple[Frame, ...]
) -> tuple[str, bool] | None:
    """(the JAX function the message's callee is, whether a line of code confirmed it). With
    no line to read, of the JAX functions of that name that ever took the keyword (one class
    re-exported by many modules), the one that took it longest."""
    parts = callee.split(".")
    short = parts[-2] if parts[-1] in _METHODS and len(parts) > 1 else parts[-1]
    if short in _METHODS or "<" in short:
        return None  # `__init__()` of Python 3.9, a closure (`<locals>`): no name to go on
    if frames:
        # Python raises it on the calling line: the call must be spelt through JAX there.
        for spelt in _JAX_NAME.findall(frames[-1].source):
            name = normalise(spelt)
            if name.rsplit(".", 1)[-1] == short and history.knows(name):
                return name, True
        return None
    taking = [name for name in history.named(short) if history.with_keyword(name, keyword)]
    if not taking:
        return None
    return max(taking, key=lambda name: (history.releases_with(name, keyword), -len(name))), False


def keyword_match(
    exception: str,
    message: str,
    frames: tuple[Frame, ...],
    catalog: Catalog,
    version: str | None,
    history: ParameterHistory | None = None,
) -> Match | None:
    """The keyword entry, its facts in front, for a JAX function's unexpected keyword."""
    found = _UNEXPECTED.search(message) if short_class(exception) == "TypeError" else None
    entry = catalog.get(KEYWORD_ENTRY)
    if found is None or entry is None:
        return None
    history = history or load_parameter_history()
    called = called_function(history, found["callee"], found["keyword"], frames)
    if called is None:
        return None
    function, confirmed = called
    facts = history.facts(function, found["keyword"], version)
    if facts is None and version:
        # The release we were told takes the keyword: the error came from another JAX.
        facts = history.facts(function, found["keyword"], None)
    if facts is None or (facts.status != "removed" and not confirmed):
        # Unless a line of code shows the function is JAX's, only a keyword JAX's function of
        # that name took and has since dropped says the error is JAX's (not a user's `split`).
        return None
    title, first = describe_keyword(facts)
    shown = replace(entry, title=title, meaning=first + "\n\n" + entry.meaning.strip())
    return Match(shown, fields_of(facts, found["callee"]), 100)


def _spans_text(spans: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(
        f"{first}-{last or 'today'}" if first != last else first for first, last in spans
    )


def describe_keyword(facts: KeywordFacts) -> tuple[str, str]:
    """(title, the facts' paragraph)."""
    name, keyword = f"`{facts.function}`", f"`{facts.keyword}`"
    taken = ", ".join(f"`{p}`" for p in facts.parameters) or "none by keyword"
    if facts.status == "removed":
        return (
            f"{keyword} is no parameter of {facts.function} since JAX {facts.changed_in}",
            f"{name} took {keyword} in JAX {_spans_text(facts.spans)}; from "
            f"{facts.changed_in} it does not: the code was written for an older JAX. In JAX "
            f"{facts.release} {name} takes: {taken}.",
        )
    if facts.status == "not-yet":
        return (
            f"{keyword} is a parameter of {facts.function} only from JAX {facts.changed_in}",
            f"{name} takes {keyword} in JAX {_spans_text(facts.spans)}: the code was written "
            f"for a newer JAX than the one that ran it; upgrade, or leave the keyword out. In "
            f"JAX {facts.release} {name} takes: {taken}.",
        )
    close = " or ".join(f"`{c}`" for c in facts.close)
    return (
        f"{facts.function} has no parameter {keyword} in any JAX release"
        + (f" (did you mean {close}?)" if close else ""),
        f"No JAX release gave {name} a parameter {keyword}: it is misspelt, or belongs to "
        f"another function. In JAX {facts.release} {name} takes: {taken}.",
    )


def fields_of(facts: KeywordFacts, callee: str) -> dict[str, str]:
    fields = {
        "callee": callee,
        "function": facts.function,
        "keyword": facts.keyword,
        "status": facts.status,
        "release": facts.release,
        "parameters": ", ".join(facts.parameters),
    }
    if facts.spans:
        fields["releases"] = _spans_text(facts.spans)
    if facts.status == "removed":
        fields["removed_in"] = facts.changed_in
    elif facts.status == "not-yet":
        fields["added_in"] = facts.changed_in
    if facts.close:
        fields["did_you_mean"] = ", ".join(facts.close)
    return fields
