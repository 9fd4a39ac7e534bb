"""Measure the explainer on the field corpus: what people pasted into public threads.

Runs the logic of `jaxerr-ls explain --json` (no workspace) on every paste in
`tests/field/pastes/` and compares it with the reading written by hand in `index.json`:

- parsed: the exception class and the first line of the message were read as printed;
- reached: the explanation names a catalog entry;
- right class: that entry is of the class printed (or, for a paste without its class, an entry
  exists at all); `XlaRuntimeError` and `JaxRuntimeError` are the same class renamed;
- identified_by: how the entry was found (message, class or raise_site).

Usage: `python -m tests.field.measure_pastes [--json] [--misses]`.
"""

from __future__ import annotations

import argparse
import builtins
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog.mlir import carried_class as mosaic_carried
from jaxerr_ls.catalog.templates import same_class, short_class
from jaxerr_ls.catalog.xla import runtime_class
from jaxerr_ls.explain import Explanation, explain_text
from jaxerr_ls.tracebacks import Traceback
from jaxerr_ls.tracebacks.jax import WRAPPERS
from jaxerr_ls.tracebacks.normalize import strip_markup
from jaxerr_ls.tracebacks.parse import paste_readings

PASTES = Path(__file__).parent / "pastes"
# Pastes gathered after the fallbacks and forms were done, never used to tune anything: the
# figure for pastes nobody has seen (helpers curating the catalog read `pastes/` only).
HOLDOUT = Path(__file__).parent / "holdout"
MISSES = Path(__file__).parent / "expected_misses.json"
# The bar counts the errors of JAX's stack: JAX, XLA/jaxlib, Pallas and these libraries.
JAX_STACK = frozenset({"jax", "xla", "pallas", "flax", "equinox", "optax", "orbax", "chex"})
# Classes renamed between releases: one class for "right class".
_SAME_CLASS = {"JaxRuntimeError": "XlaRuntimeError", "EqxRuntimeError": "EquinoxRuntimeError"}
# Printed classes an entry's class stands for are the matcher's own (`same_class`): every class
# that carries an XLA status to Python is one (jaxlib raised statuses as RuntimeError before
# XlaRuntimeError subclassed it; its C++ `std::runtime_error` came out as XlaRuntimeError, jax#16119).
_QUOTE_MARKS = re.compile(r"^(?:> ?)+|^\+ ?|^#+ ")
_SPACE = re.compile(r"\s+")
# The end of a line of a notebook file's JSON (`...instead.\\n",`), kept by an index as printed.
_NOTEBOOK_LINE_END = re.compile(r'\\n",?\s*$')
# The class a wrapper's message starts with (a bare `Exception` too: `FilteredStackTrace:
# Exception: Leaked trace ...`).
_CARRIED = re.compile(
    r"(?P<cls>(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*)?(?:Error|Exception)): (?P<msg>.*)", re.S
)
_GENERIC = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)


@dataclass(frozen=True)
class Record:
    """One paste as `index.json` describes it (written by reading the paste)."""

    file: str
    url: str
    front_end: str
    jax_release: str | None
    exception: str | None
    message_start: str | None
    user_frame: dict[str, Any] | None
    category: str
    library: str
    directory: Path = PASTES

    @property
    def expected(self) -> tuple[str | None, str | None]:
        """The class and message the paste shows. JAX's wrappers (`UnfilteredStackTrace`,
        `JaxStackTraceBeforeTransformation`, ...) print the error they carry as their message
        (`...UnfilteredStackTrace: jaxlib...XlaRuntimeError: INTERNAL: ...`): that error is the
        one to explain."""
        if self.exception and short_class(self.exception) in WRAPPERS:
            carried = _CARRIED.match(self.message_start or "")
            if carried is not None:
                return carried["cls"], carried["msg"]
        return self.exception, self.message_start

    @property
    def jax_stack(self) -> bool:
        return self.category != "non-jax" and self.library in JAX_STACK

    def text(self) -> str:
        return (self.directory / self.file).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Outcome:
    record: Record
    exception: str  # as read by the tool ("" when none)
    message: str
    entry_id: str | None
    entry_classes: frozenset[str]
    identified_by: str | None
    explanations: int

    @property
    def exception_ok(self) -> bool:
        expected = self.record.expected[0]
        if expected is None:
            return not self.exception
        return _cls(expected) == _cls(self.exception)

    @property
    def message_ok(self) -> bool:
        expected = self.record.expected[1]
        if expected is None:
            return True
        want, got = _flat(expected), _flat(self.message)
        if not want:
            return not got
        if self.record.expected[0] is None:
            # A message (or log) without its class: read right when the text read holds it; a
            # log header on every line (absl relaying output) is a prefix, not the message.
            unheaded = _flat(_PER_LINE_LOG_HEADER.sub("", expected, count=1))
            return (
                want in got
                or (unheaded and unheaded in got)
                or (len(got) >= 20 and want.startswith(got))
            )
        return got.startswith(want) or (len(got) >= 20 and want.startswith(got))

    @property
    def parsed(self) -> bool:
        return self.exception_ok and self.message_ok

    @property
    def reached(self) -> bool:
        return self.entry_id is not None

    @property
    def right_class(self) -> bool:
        if not self.reached:
            return False
        exception, message = self.record.expected
        if exception is None:
            return True
        printed = _cls(exception)
        # The class the matcher reads the printed one as: an XLA status or Mosaic's wrapper
        # carried by another class (`ValueError: INVALID_ARGUMENT: ...`, `MosaicError`).
        carried = mosaic_carried(printed, message or "") or runtime_class(printed, message or "")
        return (
            printed in self.entry_classes
            or carried in self.entry_classes
            or any(same_class(printed, cls) for cls in self.entry_classes)
        )

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.record.file,
            "category": self.record.category,
            "library": self.record.library,
            "jax_stack": self.record.jax_stack,
            "exception": self.exception,
            "message": self.message[:200],
            "parsed": self.parsed,
            "entry": self.entry_id,
            "right_class": self.right_class,
            "identified_by": self.identified_by,
        }


# absl's header (`I0105 14:05:05.749943 1404... xla_bridge.py:660] `), which the reader strips as
# a prefix when it heads every line (`tracebacks/prefixes.py`).
_PER_LINE_LOG_HEADER = re.compile(r"\A[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+\.py:\d+\] ?")


def _cls(name: str) -> str:
    short = short_class(name)
    return _SAME_CLASS.get(short, short)


def _flat(text: str) -> str:
    """The text with its spaces collapsed and without a reply's quote marks (`> > ValueError`),
    a diff's `+`, a comment's `#`, a markdown link's address or inline-code backticks (the
    thread's, not the program's; an index may have kept them in `message_start`)."""
    unlinked = "\n".join(strip_markup(text.split("\n")))  # as the parser reads links
    unlisted = _NOTEBOOK_LINE_END.sub("", unlinked)
    return _QUOTE_MARKS.sub("", _SPACE.sub(" ", unlisted).strip()).replace("`", "")


def paste_text(number: str, directory: Path = PASTES) -> str:
    """The paste whose file name starts with `number` ("053")."""
    [path] = directory.glob(f"{number}-*.txt")
    return path.read_text(encoding="utf-8")


def load_index(directory: Path = PASTES) -> list[Record]:
    data = json.loads((directory / "index.json").read_text(encoding="utf-8"))
    return [Record(**item, directory=directory) for item in data]


def primary(explanations: list[Explanation]) -> Explanation | None:
    """The explanation a reader of the paste looks at: the one that reached an entry, else the
    last one printed (the error raised last)."""
    for explanation in explanations:
        if explanation.match is not None:
            return explanation
    return explanations[-1] if explanations else None


def _the_one_asked_about(explanations: list[Explanation], record: Record) -> Explanation | None:
    """Of a paste's several errors (pytest's summary of failed tests), the one its index names."""
    want = _flat(record.message_start or "")
    if len(explanations) < 2 or len(want) < 20:
        return None
    named = [e for e in explanations if _flat(e.traceback.message or "").startswith(want)]
    return named[0] if len(named) == 1 else None


def measure_one(record: Record, matcher: Matcher) -> Outcome:
    text = record.text()
    explanations = explain_text(text, matcher)
    chosen = _the_one_asked_about(explanations, record) or primary(explanations)
    if chosen is None:
        # Nothing explained (a message without its class that matched nothing): what was read.
        read = _first_reading(text)
        return Outcome(
            record,
            read.exception if read else "",
            read.message if read else "",
            None,
            frozenset(),
            None,
            0,
        )
    data = chosen.to_json()
    entry = data["entry"]
    match = chosen.match
    classes: set[str] = set()
    if match is not None:
        classes.add(_cls(match.entry.exception))
        classes.update(_cls(w.exception) for w in match.entry.wordings if w.exception)
        # The class Python raises it as where a library's statement makes it (`python_errors`).
        classes.update(_cls(site.exception) for site in match.entry.python_errors)
        # The classes a raise outside JAX prints the same text with, in every release.
        classes.update(_cls(name) for name in match.entry.other_classes)
    return Outcome(
        record=record,
        exception=chosen.traceback.exception or "",
        message=chosen.traceback.message or "",
        entry_id=match.entry.id if match is not None else None,
        entry_classes=frozenset(classes),
        identified_by=entry.get("identified_by") if isinstance(entry, dict) else None,
        explanations=len(explanations),
    )


def _first_reading(text: str) -> Traceback | None:
    readings = paste_readings(text)
    return readings[0] if readings else None


def measure(records: Iterable[Record] | None = None) -> list[Outcome]:
    matcher = Matcher(load_catalog())
    return [measure_one(record, matcher) for record in (records or load_index())]


def ok(outcome: Outcome) -> bool:
    """What the test asks of a paste: read right, and (JAX's stack) an entry of its class."""
    return outcome.parsed and (outcome.right_class or not outcome.record.jax_stack)


def miss_reason(outcome: Outcome) -> str:
    """Why a paste misses, in the words the expected-miss list keeps."""
    r = outcome.record
    if not outcome.parsed:
        read = outcome.exception or "no class"
        return f"read as {read}: {_flat(outcome.message)[:60]!r}"
    cls = short_class(r.exception) if r.exception else "no class"
    generic = " (generic)" if r.exception and short_class(r.exception) in _GENERIC else ""
    if not outcome.reached:
        return f"{cls}{generic}: no entry has this message ({r.category})"
    return f"{cls}: reached {outcome.entry_id}, of another class"


def expected_misses() -> dict[str, str]:
    return dict(json.loads(MISSES.read_text(encoding="utf-8")))


def write_misses(outcomes: list[Outcome]) -> None:
    misses = {o.record.file: miss_reason(o) for o in outcomes if not ok(o)}
    MISSES.write_text(
        json.dumps(misses, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def table(outcomes: list[Outcome]) -> str:
    """Per category: pastes, parsed, reached, right class; the JAX stack's total last."""
    rows: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        rows[outcome.record.category].append(outcome)
    lines = [
        "| category | pastes | parsed | reached an entry | right class | identified by |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]

    def row(name: str, group: list[Outcome]) -> str:
        n = len(group)
        by = Counter(o.identified_by for o in group if o.reached and o.identified_by)
        how = ", ".join(f"{k} {v}" for k, v in sorted(by.items())) or "-"
        return (
            f"| {name} | {n} | {_pct(sum(o.parsed for o in group), n)} "
            f"| {_pct(sum(o.reached for o in group), n)} "
            f"| {_pct(sum(o.right_class for o in group), n)} | {how} |"
        )

    for name in sorted(rows, key=lambda c: (-len(rows[c]), c)):
        lines.append(row(name, rows[name]))
    stack = [o for o in outcomes if o.record.jax_stack]
    lines.append(row("**JAX stack**", stack))
    lines.append(row("all", outcomes))
    return "\n".join(lines)


def _pct(count: int, total: int) -> str:
    return f"{count} ({100 * count / total:.0f}%)" if total else "0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="one object per paste")
    parser.add_argument("--holdout", action="store_true", help="measure the held-out pastes")
    parser.add_argument("--misses", action="store_true", help="list the JAX-stack misses")
    parser.add_argument(
        "--update-misses",
        action="store_true",
        help=f"rewrite {MISSES.name} (the test's expected misses) from this run",
    )
    args = parser.parse_args(argv)
    outcomes = measure(load_index(HOLDOUT) if args.holdout else None)
    if args.update_misses and not args.holdout:
        write_misses(outcomes)
    if args.json:
        print(json.dumps([o.to_json() for o in outcomes], indent=1))
        return 0
    print(table(outcomes))
    if args.misses:
        print()
        for o in outcomes:
            if o.record.jax_stack and not o.right_class:
                why = "unparsed" if not o.parsed else ("no entry" if not o.reached else "class")
                print(f"{o.record.file}: {why}: read {o.exception or '-'}: {o.message[:90]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
