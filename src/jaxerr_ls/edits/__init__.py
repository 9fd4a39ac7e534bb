"""Text edits: the one shape every rewrite takes (fixes, upgrades), and applying them.

Below both `fixes` and `upgrades`, so neither imports the other to share it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TextEdit:
    """Replace [start, end) with `new_text`. 0-based lines; columns in Unicode code points."""

    start_line: int
    start_col: int
    end_line: int
    end_col: int
    new_text: str
