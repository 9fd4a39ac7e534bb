"""What a traceback says: its frames, the exception and message, and the exceptions before it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Frame:
    """One `File "...", line N, in f` entry (or its equivalent in another format)."""

    path: str  # as printed
    line: int  # 1-based
    function: str = ""
    source: str = ""  # the source line as printed, stripped


@dataclass(frozen=True)
class Traceback:
    """One exception with its frames; `causes` are the earlier exceptions of its chain."""

    exception: str  # class name as printed (dotted if printed dotted)
    message: str  # all its lines, without JAX's "internal frames removed" note
    frames: tuple[Frame, ...] = ()
    causes: tuple[Traceback, ...] = ()  # oldest first
    notes: tuple[str, ...] = ()  # JAX's and add_note() lines that followed the message
