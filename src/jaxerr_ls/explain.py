"""Text -> explained tracebacks: parse, match against the catalog, locate in the workspace.

The result is what `jaxerr-ls explain --json` prints and what the server turns into diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jaxerr_ls.catalog import Match, Matcher
from jaxerr_ls.catalog.loose import match_any_class
from jaxerr_ls.catalog.sites import match_raise_site
from jaxerr_ls.tracebacks import Traceback, parse_tracebacks
from jaxerr_ls.tracebacks.jax import is_wrapper
from jaxerr_ls.tracebacks.locate import (
    LineReader,
    Location,
    Workspace,
    is_user_frame,
    locate,
    read_lines,
)
from jaxerr_ls.tracebacks.parse import paste_readings, paste_tracebacks


@dataclass(frozen=True)
class Explanation:
    traceback: Traceback
    match: Match | None
    location: Location | None
    causes: tuple[Explanation, ...] = ()

    def to_json(self) -> dict[str, object]:
        tb, match = self.traceback, self.match
        return {
            "exception": tb.exception,
            "message": tb.message,
            "entry": None
            if match is None
            else {
                "id": match.entry.id,
                "title": match.entry.title,
                "message": match.entry.message,
                "curated": match.entry.curated,
                "score": match.score,
            },
            "fields": dict(match.fields) if match else {},
            "location": self.location.to_json() if self.location else None,
            "frames": [
                {
                    "path": f.path,
                    "line": f.line,
                    "function": f.function,
                    "source": f.source,
                    "user": is_user_frame(f),
                }
                for f in tb.frames
            ],
            "fixes": list(match.entry.fixes) if match else [],
            "causes": [cause.to_json() for cause in self.causes],
        }


def explain_traceback(
    traceback: Traceback,
    matcher: Matcher,
    workspace: Workspace | None,
    reader: LineReader = read_lines,
) -> Explanation:
    causes = tuple(
        explain_traceback(cause, matcher, workspace, reader) for cause in traceback.causes
    )
    return Explanation(
        traceback=traceback,
        match=match_traceback(traceback, matcher),
        location=locate(traceback, workspace, reader),
        causes=causes,
    )


def match_traceback(traceback: Traceback, matcher: Matcher) -> Match | None:
    """By the message (of any class when none was copied), else by where JAX raised it."""
    if not traceback.exception:
        return match_any_class(matcher, traceback.message)
    found = matcher.match(traceback.exception, traceback.message)
    if found is not None:
        return found
    # JAX's unfiltered copy of the same exception (remove_frames) holds the frames it removed.
    for frames in (traceback.frames, *(c.frames for c in traceback.causes if is_wrapper(c))):
        found = match_raise_site(matcher, traceback.exception, frames)
        if found is not None:
            return found
    return None


def explain_text(
    text: str,
    matcher: Matcher,
    root: Path | None = None,
    reader: LineReader = read_lines,
    workspace: Workspace | None = None,
) -> list[Explanation]:
    """Every traceback in `text`, explained; short of a traceback, what the pasted text says (a
    message without its class only when it matches one entry unambiguously)."""
    if workspace is None and root is not None:
        workspace = Workspace(root)
    found = parse_tracebacks(text) or paste_tracebacks(text)
    if found:
        return [explain_traceback(tb, matcher, workspace, reader) for tb in found]
    return explain_paste(text, matcher, workspace, reader)


def explain_paste(
    text: str,
    matcher: Matcher,
    workspace: Workspace | None = None,
    reader: LineReader = read_lines,
) -> list[Explanation]:
    """Text short of a traceback: the first reading that reaches an entry; else the exception
    line as read, unmatched; a message without its class is only reported when it matched."""
    readings = [explain_traceback(tb, matcher, workspace, reader) for tb in paste_readings(text)]
    for reading in readings:
        if reading.match is not None:
            return [reading]
    return [reading for reading in readings[:1] if reading.traceback.exception]
