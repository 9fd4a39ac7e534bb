"""One small parser per traceback dialect. Each reads cleaned lines from a start index and returns
`Parsed(traceback, end)` or None; `jaxerr_ls.tracebacks.parse` chains and post-processes them."""

from __future__ import annotations

from dataclasses import dataclass

from jaxerr_ls.tracebacks.model import Traceback


@dataclass(frozen=True)
class Parsed:
    traceback: Traceback
    end: int  # index of the first line after what was read
