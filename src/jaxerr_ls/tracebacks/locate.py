"""Where a traceback points in the user's code: the deepest frame that is theirs, mapped into the
workspace (exactly, relative to the root, or by the longest matching path suffix)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath

from jaxerr_ls.tracebacks.cells import Notebook, find_cell
from jaxerr_ls.tracebacks.dialects.common import short_class
from jaxerr_ls.tracebacks.jax import BEFORE_TRANSFORMATION
from jaxerr_ls.tracebacks.model import Frame, Traceback

# Path pieces that mark library code, not the user's (compared on '/'-separated lower-case paths).
# Virtual environments' own scripts (`.venv/bin/ipython`) are not the user's code either.
LIBRARY_PARTS = (
    "/site-packages/",
    "/dist-packages/",
    "/jax/_src/",
    "/jaxlib/",
    "/.pyenv/",
    "/.venv/",
    "/venv/bin/",
)
# POSIX `/usr/lib/python3.11/json/...`; Windows `.../Python311/Lib/json/...` (no version dir).
STDLIB = re.compile(
    r"/(?:lib|lib64)/python\d+(?:\.\d+)?/(?!site-packages|dist-packages)"
    r"|/python\d+/lib/(?!site-packages)"
)
# Notebook cells: IPython 8+ labels, classic pseudo-files, ipykernel and Colab cell files.
CELL = re.compile(
    r"^(?:Cell In ?\[\d+\]|Input In ?\[\d+\]|<ipython-input-[^>]*>)$"
    r"|(?:^|[/\\])(?:ipykernel_\d+[/\\]\d+\.py|ipython-input-[\w-]+\.py)$"
)
# "... while tracing the function f at /path/x.py:12 for jit", "created on line /path/x.py:12".
MESSAGE_LOCATION = re.compile(
    r"(?:\bfunction (?P<function>[\w.<>]+) at|\bat|\bline) "
    r"(?P<path>[^\s:()]+\.py|<ipython-input-[^>]*>):(?P<line>\d+)"
)
SKIPPED_DIRS = frozenset(
    {".git", ".venv", "venv", "node_modules", "__pycache__", ".mypy_cache", ".tox", "build", "dist"}
)
MAX_FILES = 50_000


@dataclass(frozen=True)
class Location:
    path: str  # absolute workspace path when found, else as printed
    line: int  # 1-based (in the cell when `cell` is set)
    in_workspace: bool
    cell: int | None = None  # 0-based cell index when `path` is a notebook

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"path": self.path}
        if self.cell is not None:
            out["cell"] = self.cell
        out.update(line=self.line, in_workspace=self.in_workspace)
        return out


def _slashed(path: str) -> str:
    return path.replace("\\\\", "/").replace("\\", "/").lower()


def is_pseudo(path: str) -> bool:
    """`<stdin>`, `<frozen runpy>`, `<ipython-input-3-...>`, notebook cells: no workspace file."""
    return (path.startswith("<") and path.endswith(">")) or is_cell(path)


def is_cell(path: str) -> bool:
    """A notebook or IPython cell: the user's code, but not a file in the workspace."""
    return CELL.search(path) is not None


def is_user_path(path: str) -> bool:
    """Whether a printed path is the user's code (not JAX, not installed packages or stdlib)."""
    if is_cell(path):
        return True
    if is_pseudo(path):
        lowered = path.lower()
        return "ipython-input" in lowered or "stdin" in lowered or "python-input" in lowered
    slashed = "/" + _slashed(path).lstrip("/")
    if any(part in slashed for part in LIBRARY_PARTS):
        return False
    return STDLIB.search(slashed) is None


def is_user_frame(frame: Frame) -> bool:
    return is_user_path(frame.path)


@dataclass
class Workspace:
    """A workspace root and a lazily built index of its Python files by name; its notebooks
    (`open_notebooks`, e.g. those open in the editor, first and in place of their saved files)."""

    root: Path
    open_notebooks: tuple[Notebook, ...] = ()
    _by_name: dict[str, list[Path]] | None = field(default=None, repr=False)
    _notebooks: tuple[Notebook, ...] | None = field(default=None, repr=False)

    def notebooks(self) -> tuple[Notebook, ...]:
        """Open notebooks, then the workspace's saved `.ipynb` files (read on first use)."""
        if self._notebooks is None:
            from jaxerr_ls.tracebacks.ipynb import read_notebook

            opened = {notebook.path for notebook in self.open_notebooks}
            saved: list[Notebook] = []
            for path in self._all_files():
                if path.suffix.lower() == ".ipynb" and str(path.resolve()) not in opened:
                    parsed = read_notebook(path)
                    if parsed is not None:
                        saved.append(parsed.notebook)
            self._notebooks = (*self.open_notebooks, *saved)
        return self._notebooks

    def _all_files(self) -> list[Path]:
        self.files_named("")
        assert self._by_name is not None
        return [path for paths in self._by_name.values() for path in paths]

    def files_named(self, name: str) -> list[Path]:
        if self._by_name is None:
            self._by_name = {}
            for path in _walk(self.root):
                self._by_name.setdefault(path.name.lower(), []).append(path)
        return self._by_name.get(name.lower(), [])

    def resolve(self, printed: str) -> Path | None:
        """The workspace file a printed path means, or None."""
        if is_pseudo(printed):
            return None
        parts = _parts(printed)
        if not parts:
            return None
        direct = Path(printed)
        candidates = [direct] if direct.is_absolute() else [self.root / direct]
        for candidate in candidates:
            try:
                if candidate.is_file() and _inside(candidate.resolve(), self.root.resolve()):
                    return candidate.resolve()
            except OSError:
                continue
        best: tuple[int, Path] | None = None
        for path in self.files_named(parts[-1]):
            relative = path.relative_to(self.root).parts
            common = _common_suffix([p.lower() for p in relative], [p.lower() for p in parts])
            if best is None or common > best[0]:
                best = (common, path)
        return best[1].resolve() if best else None


def _parts(printed: str) -> list[str]:
    if re.match(r"^[A-Za-z]:[\\/]", printed) or "\\" in printed:
        pieces = PureWindowsPath(printed.replace("\\\\", "\\")).parts
    else:
        pieces = PurePosixPath(printed).parts
    return [p for p in pieces if p not in ("/", "\\", ".", "..", "...") and not p.endswith(":\\")]


def _common_suffix(a: list[str], b: list[str]) -> int:
    count = 0
    while count < min(len(a), len(b)) and a[-1 - count] == b[-1 - count]:
        count += 1
    return count


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def _walk(root: Path) -> Iterable[Path]:
    seen = 0
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith((".py", ".pyi", ".ipynb")):
                seen += 1
                if seen > MAX_FILES:
                    return
                yield Path(directory) / name


LineReader = Callable[[Path], "list[str] | None"]


def read_lines(path: Path) -> list[str] | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None


def relocate(lines: list[str], line: int, source: str) -> int | None:
    """The line now holding the printed source (nearest to where it was), or None if gone."""
    wanted = source.strip()
    if not wanted:
        return line if 1 <= line <= len(lines) else None
    if 1 <= line <= len(lines) and _same(lines[line - 1].strip(), wanted):
        return line
    found = [n for n, text in enumerate(lines, start=1) if _same(text.strip(), wanted)]
    return min(found, key=lambda n: abs(n - line)) if found else None


def _same(actual: str, printed: str) -> bool:
    """The printed source is the line, or its start (IPython's colour mode drops a trailing
    comment, rich and terminals cut long lines)."""
    if actual == printed:
        return True
    return len(printed) >= 6 and actual.startswith(printed)


def locate(
    traceback: Traceback,
    workspace: Workspace | None,
    reader: LineReader = read_lines,
) -> Location | None:
    """The deepest frame in the user's code, mapped into the workspace when possible; when JAX hid
    the frames, the location the message names. The trace-time stack JAX attaches as a
    JaxStackTraceBeforeTransformation cause points at the user's operation: it comes first."""
    stacks = [
        c.frames for c in traceback.causes if short_class(c.exception) == BEFORE_TRANSFORMATION
    ]
    for frames in [*reversed(stacks), traceback.frames]:
        deepest = next((f for f in reversed(frames) if is_user_frame(f)), None)
        if deepest is None:
            continue
        if is_cell(deepest.path):
            return _place_cell(deepest, workspace)  # None: explained, not located
        if is_pseudo(deepest.path):
            return None  # `<stdin>`: explained, not located
        # When the file changed and the printed line is gone, the location is dropped.
        return _place(deepest.path, deepest.line, deepest.source, workspace, reader)
    for match in MESSAGE_LOCATION.finditer(traceback.message):
        if is_cell(match.group("path")):
            named = Frame(match.group("path"), int(match.group("line")))
            found = _place_cell(named, workspace, match.group("function") or "")
            if found is not None:
                return found
        elif is_user_path(match.group("path")):
            found = _place(match.group("path"), int(match.group("line")), "", workspace, reader)
            if found is not None:
                return found
    return None


def _place_cell(frame: Frame, workspace: Workspace | None, function: str = "") -> Location | None:
    """The cell that ran the frame; `function` is the one JAX names as traced at its first line."""
    if workspace is None:
        return None
    place = find_cell(workspace.notebooks(), frame.path, frame.line, frame.source, function)
    if place is None:
        return None
    return Location(place.notebook.path, place.line, True, cell=place.cell)


def _place(
    printed: str, line: int, source: str, workspace: Workspace | None, reader: LineReader
) -> Location | None:
    path = workspace.resolve(printed) if workspace is not None else None
    if path is None:
        return Location(printed, line, False)
    lines = reader(path)
    if lines is None:
        return Location(str(path), line, True)
    moved = relocate(lines, line, source)
    return None if moved is None else Location(str(path), moved, True)
