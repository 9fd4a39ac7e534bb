"""Explanations as text for a terminal: what went wrong, on which line, what it means, the fix."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from jaxerr_ls.catalog import Entry
from jaxerr_ls.catalog.classes import identified_words
from jaxerr_ls.catalog.libraries import library_of_file, raiser, release_label
from jaxerr_ls.catalog.loglines import log_language
from jaxerr_ls.catalog.model import LIBRARIES, LOG_CLASS
from jaxerr_ls.catalog.xla import pinned_commit, site_label
from jaxerr_ls.explain.model import Explanation
from jaxerr_ls.render.facts import (
    apis_by_directness,
    depth_words,
    installed_lines,
    release_ranges,
    release_span,
    source_link,
    when_raised,
)

WIDTH = 88

# `Entry.verb` in the present tense: "APIs that raise it", "When and where JAX warns it".
_PRESENT = {"raised": "raise", "warned": "warn", "logged": "log"}


@dataclass(frozen=True)
class Style:
    color: bool = False

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def red(self, text: str) -> str:
        return self._wrap("1;31", text)

    def cyan(self, text: str) -> str:
        return self._wrap("36", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)


def _paragraph(text: str, indent: str) -> str:
    flowing = " ".join(text.split())
    return textwrap.fill(flowing, WIDTH, initial_indent=indent, subsequent_indent=indent)


def _bullets(items: Sequence[str], indent: str, numbered: bool = False) -> list[str]:
    out = []
    for number, item in enumerate(items, start=1):
        mark = f"{number}. " if numbered else "- "
        out.append(
            textwrap.fill(
                " ".join(item.split()),
                WIDTH,
                initial_indent=indent + mark,
                subsequent_indent=indent + " " * len(mark),
            )
        )
    return out


def render_entry(entry: Entry, style: Style = Style(), *, full: bool = True) -> list[str]:
    """An entry's explanation; `full` adds triggers, situations, the example and sites."""
    out = [style.bold(f"{entry.title}") + style.dim(f"  [{entry.id}]")]
    if entry.meaning:
        out += ["", _paragraph(entry.meaning, "  ")]
    if full and entry.triggers:
        out += ["", style.bold("  Triggered by")] + _bullets(entry.triggers, "    ")
    if full and entry.situations:
        out += ["", style.bold("  Common situations")] + _bullets(entry.situations, "    ")
    if entry.solutions:
        out += ["", style.bold("  How to fix")] + _bullets(entry.solutions, "    ", numbered=True)
    if entry.fixes:
        out += ["", "  Editor quick fixes: " + ", ".join(entry.fixes)]
    if full and entry.example is not None:
        for label, code in (("Before", entry.example.before), ("After", entry.example.after)):
            out += ["", style.bold(f"  {label}:")]
            out += ["    " + line if line else "" for line in code.rstrip().splitlines()]
        if entry.example.cpu_note:
            out += ["", _paragraph("Note: " + entry.example.cpu_note, "  ")]
    if full and entry.related:
        out += ["", "  Related: " + ", ".join(entry.related)]
    if entry.docs:
        out += ["", "  Docs: " + style.cyan(entry.docs)]
    return out


SITES_SHOWN = 5
APIS_SHOWN = 8


def render_entry_page(
    entry: Entry, releases: tuple[str, ...] = (), style: Style = Style(), *, source: bool = True
) -> list[str]:
    """`catalog show`: the message, when and where JAX raises it (pinned links, and the lines of
    the installed copy when it is that release), the APIs by directness, the releases, then the
    explanation."""
    out = [style.red(entry.exception) + ": " + entry.message.split("\n", 1)[0]]
    out += ["    " + line for line in entry.message.split("\n")[1:]]
    out += [""] + render_entry(entry, style, full=True)
    who = raiser(entry)
    if entry.raised_at:
        does = _PRESENT[entry.verb] + "s"
        out += ["", style.bold(f"  When and where {who} {does} it")]
        for site in entry.raised_at[:SITES_SHOWN]:
            out += _paragraph(when_raised(site, entry.verb) + ".", "    ").split("\n")
            owner = LIBRARIES.get(library_of_file(site.file) or "", "JAX")
            label = site_label(site) if pinned_commit(site) else f"{owner} {site.jax}"
            out.append(f"      {site.file}:{site.line} ({label})  " + style.cyan(source_link(site)))
            lines = installed_lines(site) if source else None
            if lines:
                out.append(style.dim("      in your installed JAX:"))
                out += ["      " + line for line in lines]
        if len(entry.raised_at) > SITES_SHOWN:
            out.append(f"    … and {len(entry.raised_at) - SITES_SHOWN} more raise sites")
    verb = entry.verb
    if entry.apis:
        lead = _PRESENT[entry.verb]
        out += ["", style.bold(f"  APIs that {lead} it, most direct first")]
        for depth, apis in apis_by_directness(entry):
            shown = ", ".join(apis[:APIS_SHOWN])
            more = f" (+{len(apis) - APIS_SHOWN} more)" if len(apis) > APIS_SHOWN else ""
            label = (
                "listed by hand"
                if entry.curated and depth == 0 and not entry.api_depths
                else depth_words(depth)
            )
            out += _paragraph(f"{label}: {shown}{more}", "    ").split("\n")
    if entry.other_classes:
        out += ["", style.bold("  Also printed as")]
        out += _paragraph(
            f"{', '.join(entry.other_classes)}, as well as {entry.exception}: the same texts, "
            "whatever the JAX release",
            "    ",
        ).split("\n")
    if entry.library_versions:
        out += ["", style.bold(f"  {who} releases")]
        out += _paragraph(
            f"{verb} by {', '.join(entry.library_versions)} (of the releases catalogued)", "    "
        ).split("\n")
    if entry.versions or any(w.versions for w in entry.wordings):
        out += ["", style.bold("  JAX releases")]
        if entry.versions:
            out += _paragraph(
                f"{verb} by {release_ranges(entry.versions, releases)}"
                f" ({len(entry.versions)} release{'s' if len(entry.versions) != 1 else ''})",
                "    ",
            ).split("\n")
        if entry.wordings:
            out.append("    worded differently in:")
            for wording in entry.wordings:
                out += _paragraph(
                    f"{release_ranges(wording.versions, releases)}: "
                    + wording.message.split("\n", 1)[0],
                    "      ",
                ).split("\n")
    return out


def render_explanation(explanation: Explanation, style: Style = Style()) -> list[str]:
    tb = explanation.traceback
    first, *rest = tb.message.split("\n") if tb.message else [""]
    exception = tb.exception
    if not exception and explanation.match is not None:
        # A message pasted without its class: the class is the entry's; a C++ log line has none.
        exception = f"{explanation.match.entry.exception} (class not in the text)"
        if explanation.match.entry.exception == LOG_CLASS:
            language = log_language(explanation.match.entry)
            exception = f"{language} log line (no exception in the text)"
    out = [style.red(exception) + (f": {first}" if first else "")]
    out += [line for line in rest[:6]]
    if len(rest) > 6:
        out.append(style.dim(f"... ({len(rest) - 6} more lines)"))
    location = explanation.location
    if location is not None:
        where = f"{location.path}:{location.line}"
        if location.cell is not None:  # cells are counted from 1 in what people read
            where = f"{location.path}, cell {location.cell + 1}, line {location.line}"
        frame = next((f for f in reversed(tb.frames) if f.line == location.line and f.source), None)
        name = f" in {frame.function}" if frame is not None and frame.function else ""
        out += ["", "  " + style.bold("at ") + style.cyan(where) + name]
        if frame is not None:
            out.append("      " + frame.source)
    else:
        out += ["", style.dim("  (no location in your code: the traceback names none we can find)")]
    out.append("")
    match = explanation.match
    if match is None:
        out += [style.dim(line) for line in _paragraph(explanation.unexplained(), "  ").split("\n")]
    else:
        entry = match.entry
        sure = "" if match.score >= 100 else style.dim(f"  (match score {match.score})")
        body = render_entry(entry, style, full=False)
        out.append("  " + body[0] + sure)
        how = identified_words(match, tb.exception, message=tb.message)
        if how:
            out.append(style.dim("  " + how))
        out += body[1:]
        if match.fields:
            values = ", ".join(f"{k} = {v}" for k, v in match.fields.items())
            out += ["", "  From the message: " + values]
        verb = entry.verb.capitalize()
        if not entry.curated:
            out += ["", style.dim(f"  {verb} in {raiser(entry)} at {_sites(entry)}.")]
        worded = [w for w in entry.wordings if w.versions]
        if entry.versions or worded:
            line = f"  {verb} by JAX {release_span(entry.versions)}" if entry.versions else ""
            if worded:
                line += "; worded differently in " if line else "  Worded differently in JAX "
                line += ", ".join(release_span(w.versions) for w in worded)
            out += [style.dim(line + ".")]
        elif entry.library_versions:
            out += [style.dim(f"  {verb} by {release_label(entry)}.")]
    for cause in explanation.causes:
        out += ["", style.dim("  Caused by an earlier exception:")]
        out += ["    " + line for line in render_explanation(cause, style)]
    return out


def _sites(entry: Entry) -> str:
    return "; ".join(f"{s.file}:{s.line} in {s.function}" for s in entry.raised_at[:3])


def render_explanations(explanations: Sequence[Explanation], style: Style = Style()) -> str:
    if not explanations:
        return "No traceback found in the input.\n"
    blocks = ["\n".join(render_explanation(e, style)) for e in explanations]
    rule = "\n" + style.dim("-" * 60) + "\n"
    return rule.join(blocks) + "\n"
