"""Locating a traceback in the workspace: which frame, which file, which line."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.tracebacks import Frame, Traceback, parse_tracebacks
from jaxerr_ls.tracebacks.locate import (
    Workspace,
    is_cell,
    is_user_path,
    locate,
    relocate,
)


@pytest.fixture()
def workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "pkg" / "model").mkdir(parents=True)
    (tmp_path / "other" / "model").mkdir(parents=True)
    (tmp_path / "train.py").write_text("import jax\n\nloss = step()\n", encoding="utf-8")
    (tmp_path / "pkg" / "model" / "step.py").write_text("a\nb\nreturn x / s\n", encoding="utf-8")
    (tmp_path / "other" / "model" / "step.py").write_text("", encoding="utf-8")
    (tmp_path / "other" / "step.py").write_text("", encoding="utf-8")
    return Workspace(tmp_path)


def test_resolve_exact_relative_and_suffix(workspace: Workspace) -> None:
    root = workspace.root.resolve()
    assert workspace.resolve(str(root / "train.py")) == root / "train.py"
    assert workspace.resolve("train.py") == root / "train.py"
    assert workspace.resolve("pkg/model/step.py") == root / "pkg" / "model" / "step.py"
    # From a container or cluster: the longest matching suffix wins.
    assert workspace.resolve("/app/pkg/model/step.py") == root / "pkg" / "model" / "step.py"
    assert workspace.resolve("/content/drive/other/step.py") == root / "other" / "step.py"
    assert workspace.resolve("C:\\Users\\me\\proj\\pkg\\model\\step.py") == (
        root / "pkg" / "model" / "step.py"
    )
    assert workspace.resolve("c:\\\\users\\\\me\\\\TRAIN.PY") == root / "train.py"
    assert workspace.resolve("/somewhere/missing.py") is None
    assert workspace.resolve("<stdin>") is None
    assert workspace.resolve("Cell In[3]") is None


@pytest.mark.parametrize(
    ("path", "user"),
    [
        ("/home/u/proj/train.py", True),
        ("train.py", True),
        ("/usr/lib/python3.11/json/decoder.py", False),
        ("/home/u/.venv/lib/python3.11/site-packages/flax/core.py", False),
        ("/usr/local/lib/python3.10/dist-packages/jax/_src/core.py", False),
        ("/home/ayx/jax/jax/_src/pjit.py", False),
        ("C:\\Users\\me\\.venv\\Lib\\site-packages\\jax\\_src\\api.py", False),
        ("C:\\Python311\\Lib\\json\\decoder.py", False),
        ("<frozen runpy>", False),
        ("<string>", False),
        ("Cell In[3]", True),
        ("/tmp/ipykernel_5649/1841851383.py", True),
    ],
)
def test_user_paths(path: str, user: bool) -> None:
    assert is_user_path(path) is user


def test_cells() -> None:
    assert is_cell("Cell In[12]") and is_cell("Input In [4]") and is_cell("<ipython-input-3-ab>")
    assert is_cell("/tmp/ipython-input-3692169468.py")
    assert not is_cell("/home/u/cells.py")


def test_deepest_user_frame_wins(workspace: Workspace) -> None:
    tb = Traceback(
        "ValueError",
        "x",
        (
            Frame("/app/train.py", 3, "<module>", "loss = step()"),
            Frame("/app/pkg/model/step.py", 3, "step", "return x / s"),
            Frame("/venv/lib/python3.11/site-packages/jax/_src/core.py", 10, "f", "raise"),
            Frame("<frozen runpy>", 88, "_run_code", ""),
        ),
    )
    location = locate(tb, workspace)
    assert location is not None and location.in_workspace
    assert Path(location.path) == workspace.root.resolve() / "pkg" / "model" / "step.py"
    assert location.line == 3


def test_relocate_when_the_file_changed(workspace: Workspace) -> None:
    assert relocate(["a", "x = 1", "b", "x = 1"], 1, "x = 1") == 2
    assert relocate(["a", "x = 1", "b", "x = 1"], 4, "x = 1") == 4
    assert relocate(["a", "b"], 1, "gone()") is None
    assert relocate(["a", "b"], 2, "") == 2
    assert relocate(["a"], 5, "") is None
    moved = Traceback("E", "m", (Frame("/x/train.py", 1, "<module>", "loss = step()"),))
    location = locate(moved, workspace)
    assert location is not None and location.line == 3
    gone = Traceback("E", "m", (Frame("/x/train.py", 3, "<module>", "deleted()"),))
    assert locate(gone, workspace) is None


def test_file_outside_workspace_keeps_printed_path(workspace: Workspace) -> None:
    tb = Traceback("E", "m", (Frame("/elsewhere/nothing_like_it.py", 7, "f", "x"),))
    location = locate(tb, workspace)
    assert location is not None and not location.in_workspace
    assert (location.path, location.line) == ("/elsewhere/nothing_like_it.py", 7)


def test_notebook_cell_is_explained_without_location() -> None:
    text = (
        "-" * 75 + "\nValueError" + " " * 33 + "Traceback (most recent call last)\n"
        "Cell In[2], line 1\n----> 1 f(1)\n\n"
        "File /usr/lib/python3.11/site-packages/jax/_src/core.py:9, in g(x)\n"
        "----> 9 raise ValueError('bad')\n\nValueError: bad\n"
    )
    tb = parse_tracebacks(text)[0]
    assert tb.frames[0].path == "Cell In[2]"
    assert locate(tb, None) is None


def test_hidden_frames_use_the_location_in_the_message(workspace: Workspace) -> None:
    tb = Traceback(
        "jax.errors.TracerBoolConversionError",
        "Attempted boolean conversion.\nThe error occurred while tracing the function f at "
        "/app/pkg/model/step.py:2 for jit.",
        (Frame("/venv/lib/python3.11/site-packages/jax/_src/core.py", 1, "f", ""),),
    )
    location = locate(tb, workspace, reader=lambda _: None)
    assert location is not None and location.line == 2 and location.path.endswith("step.py")
