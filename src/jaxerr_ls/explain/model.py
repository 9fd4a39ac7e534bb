"""An explained traceback: what `explain --json` prints, what diagnostics and renderers read."""

from __future__ import annotations

from dataclasses import dataclass

from jaxerr_ls.catalog import Match
from jaxerr_ls.tracebacks import Traceback
from jaxerr_ls.tracebacks.locate import Location, is_user_frame

CUT_BEFORE_MESSAGE = (
    "The text stops before the error's message: only its class was copied, and a generic class"
    " says nothing by itself. Copy the output down to its last line ({cls}: ...) to have it"
    " explained."
)
NO_ENTRY = "Not in the catalog: no entry matches this message well."


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
                "library": match.entry.library,
                "identified_by": match.by,
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

    def unexplained(self) -> str:
        """Why no entry explains it, in words (empty when one does)."""
        if self.match is not None:
            return ""
        if not self.traceback.message.strip():
            return CUT_BEFORE_MESSAGE.format(cls=self.traceback.exception or "Error")
        return NO_ENTRY
