"""The layering of docs/architecture.md holds in the code: no import runs upward or sideways.

The floors are read from the map itself, so the map and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "jaxerr_ls"
MAP = ROOT / "docs" / "architecture.md"


def floors() -> dict[str, int]:
    found = {}
    for number, rooms in re.findall(r"^floor (\d+)\s+(.+)$", MAP.read_text(), re.M):
        for room in rooms.split():
            found[room] = int(number)
    return found


def room_of(module: str) -> str:
    """`jaxerr_ls.shells.lsp.hover` -> `shells.lsp`; `jaxerr_ls.catalog.match` -> `catalog`;
    the package's own modules (`jaxerr_ls`, `jaxerr_ls.__main__`) -> `<package>`."""
    parts = module.split(".")[1:]
    if not parts or parts[0] in ("__init__", "__main__"):
        return "<package>"
    if parts[0] == "shells" and len(parts) > 1:
        return f"shells.{parts[1]}"
    return parts[0]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every jaxerr_ls import, at any depth (lazy imports count too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [(node.lineno, n) for n in names if n == "jaxerr_ls" or n.startswith("jaxerr_ls.")]
    return found


def test_every_room_is_on_a_floor() -> None:
    known = floors()
    rooms = {room_of(module_name(p)) for p in PACKAGE.rglob("*.py")}
    missing = sorted(rooms - set(known))
    assert not missing, f"rooms on no floor of docs/architecture.md: {missing}"


def test_no_relative_imports() -> None:
    # The floors are read from absolute imports; a relative one would slip past them.
    relative = [
        f"{p.relative_to(ROOT)}:{node.lineno}"
        for p in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(p.read_text()))
        if isinstance(node, ast.ImportFrom) and node.level
    ]
    assert not relative


def test_no_import_runs_upward_or_sideways() -> None:
    known = floors()
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = room_of(module_name(path))
        for line, target in imports(path):
            there = room_of(target)
            if there == here or here not in known or there not in known:
                continue
            if known[there] >= known[here]:
                wrong.append(
                    f"{path.relative_to(ROOT)}:{line} ({here}, floor {known[here]}) imports "
                    f"{target} ({there}, floor {known[there]})"
                )
    assert not wrong, "imports against the floors of docs/architecture.md:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("module", "room"),
    [
        ("jaxerr_ls.shells.lsp.hover", "shells.lsp"),
        ("jaxerr_ls.catalog.match", "catalog"),
        ("jaxerr_ls", "<package>"),
        ("jaxerr_ls.__main__", "<package>"),
        ("jaxerr_ls.version", "version"),
    ],
)
def test_room_of(module: str, room: str) -> None:
    assert room_of(module) == room


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The check itself can fail: a catalog module importing a shell is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("from jaxerr_ls.shells.lsp.server import start\n")
    ((line, target),) = imports(bad)
    known = floors()
    assert known[room_of(target)] > known["catalog"]
