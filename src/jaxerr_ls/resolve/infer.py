"""The slow path: ask jedi what a name is. The only module that imports jedi (lazily).

jedi reads source statically; with `smart_sys_path=False` and no unsafe extensions it never
imports or runs workspace code. Callers run this in a worker thread, never on the event loop.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

# jedi on a multi-megabyte file takes seconds; hover should rather say nothing.
MAX_SOURCE = 1_000_000
_LOCK = threading.Lock()  # jedi's caches are not thread-safe


@lru_cache(maxsize=8)
def _project(root: str | None) -> Any:
    import jedi

    # Hover must not wait on slow imports of compiled modules being inspected.
    jedi.settings.auto_import_modules = []
    return jedi.Project(
        path=root or Path.cwd(),
        smart_sys_path=False,
        load_unsafe_extensions=False,
    )


def infer_names(
    source: str, path: str | None, root: str | None, line: int, column: int
) -> list[str]:
    """Full names jedi gives the name at (0-based line, code-point column), best first."""
    if len(source) > MAX_SOURCE:
        return []
    import jedi

    with _LOCK:
        script = jedi.Script(code=source, path=path, project=_project(root))
        found = script.infer(line + 1, column) or script.goto(line + 1, column, follow_imports=True)
        return [n.full_name for n in found if n.full_name]
