"""What the browser tests read off the screen, shared by the VS Code and JupyterLab tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .conftest import normalize

_WORD_CENTER_JS = """([selector, start, word]) => {
    for (const line of document.querySelectorAll(selector)) {
        const text = line.textContent.replace(/\\u00a0/g, ' ');
        if (!text.trimStart().startsWith(start)) continue;
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const i = n.textContent.indexOf(word);
            if (i < 0) continue;
            const r = document.createRange();
            r.setStart(n, i); r.setEnd(n, i + word.length);
            const b = r.getBoundingClientRect();
            return [b.left + b.width / 2, b.top + b.height / 2];
        }
    }
    return null;
}"""


def word_center(page: Any, lines: str, line_start: str, word: str) -> tuple[float, float]:
    """Screen position of `word` in the code line (one of the elements `lines` selects) that
    starts with `line_start`; editors draw spaces as non-breaking ones, read as spaces."""
    pos = page.evaluate(_WORD_CENTER_JS, [lines, line_start, word])
    assert pos, f"no line starting with {line_start!r} containing {word!r} on screen"
    return float(pos[0]), float(pos[1])


def wait_text(element: Any, done: Callable[[str], bool], timeout_s: float) -> str:
    """The element's (normalized) text once `done(text)` holds, or at the deadline: a hover
    fills in after it appears."""
    deadline = time.monotonic() + timeout_s
    while True:
        text = normalize(element.inner_text()) if element.count() else ""
        if done(text) or time.monotonic() > deadline:
            return text
        time.sleep(0.1)
