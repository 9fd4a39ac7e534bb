"""Hand-made samples of formats this machine cannot produce (Colab, Windows, rich, Ray, GitHub
Actions, docker compose, VS Code, Python 3.13, old JAX wrappers). They are reproduced from
/work/shared/traceback-formats.md and the code that prints them, not captured."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from jaxerr_ls.tracebacks import parse_tracebacks
from jaxerr_ls.tracebacks.locate import locate

SAMPLES = Path(__file__).parent / "samples"


@dataclass(frozen=True)
class Expect:
    exception: str  # short class name
    message: str  # the message starts with this
    where: tuple[str, int] | None  # path suffix and line of the located frame
    causes: tuple[str, ...] = ()  # short class names, oldest first
    source: str | None = None  # source line of the located frame


EXPECTED = {
    "colab_classic.txt": Expect("TracerBoolConversionError", "Attempted boolean", None),
    "colab_2025.txt": Expect("TypeError", "dot_general requires contracting", None),
    "ipython8_user_file.txt": Expect("ZeroDivisionError", "division by zero", ("utils.py", 12)),
    "ipython8_early_input.txt": Expect("TypeError", "add got incompatible", ("utils.py", 7)),
    "vscode_notebook_links.txt": Expect("TypeError", "add got", ("stuff_proj.py", 7)),
    "vscode_copy_output.json.txt": Expect("ZeroDivisionError", "division", ("utils.py", 12)),
    "windows.txt": Expect("ZeroDivisionError", "division by zero", ("model\\step.py", 7)),
    "windows_crlf.txt": Expect("ZeroDivisionError", "division by zero", ("train.py", 12)),
    "rich_box.txt": Expect(
        "ZeroDivisionError", "division by zero", ("step.py", 7), source='return cfg["lr"] / scale'
    ),
    "rich_unfiltered.txt": Expect(
        "TracerBoolConversionError",
        "Attempted boolean",
        ("train.py", 6),
        causes=("UnfilteredStackTrace",),
    ),
    "ray_prefix.txt": Expect("ValueError", "vmap got inconsistent sizes", ("train.py", 38)),
    "github_actions.txt": Expect("ZeroDivisionError", "division by zero", ("train.py", 7)),
    "docker_compose.txt": Expect("ZeroDivisionError", "division by zero", ("/app/train.py", 7)),
    "absl_first_line.txt": Expect("JaxRuntimeError", "RESOURCE_EXHAUSTED", ("train.py", 38)),
    "markdown_paste.txt": Expect("ZeroDivisionError", "division by zero", ("train.py", 7)),
    "backticks_quoted.txt": Expect("ZeroDivisionError", "division by zero", ("train.py", 12)),
    "backticks_inline.txt": Expect("ZeroDivisionError", "division by zero", ("train.py", 12)),
    "tqdm_cr.txt": Expect("ZeroDivisionError", "division by zero", ("train.py", 12)),
    "terminal_raw_py313.txt": Expect("ZeroDivisionError", "division by zero", ("train.py", 12)),
    "py313_carets.txt": Expect(
        "ZeroDivisionError", "division by zero", ("train.py", 8), source='return (cfg["lr"]'
    ),
    "simplified_traceback.txt": Expect(
        "TracerBoolConversionError",
        "Attempted boolean",
        ("train.py", 6),
        causes=("SimplifiedTraceback",),
    ),
    "unfiltered_only.txt": Expect(
        "TracerBoolConversionError",
        "Attempted boolean",
        ("train.py", 6),
        causes=("UnfilteredStackTrace",),
    ),
    "before_transformation.txt": Expect(
        "ValueError",
        "Reverse-mode differentiation",
        ("model.py", 9),
        causes=("JaxStackTraceBeforeTransformation",),
    ),
    "hidden_frames_message.txt": Expect("TracerBoolConversionError", "Attempted", ("train.py", 4)),
    "pytest_line.txt": Expect("TracerBoolConversionError", "Attempted boolean", ("train.py", 32)),
    "pytest_long_xdist_color.txt": Expect(
        "TracerBoolConversionError", "Attempted", ("train.py", 32), source="if x.sum() > 0:"
    ),
    "exception_group_nested.txt": Expect(
        "ExceptionGroup",
        "2 shards failed",
        ("load.py", 9),
        causes=("FileNotFoundError", "ValueError"),
    ),
    "syntax_error_import.txt": Expect("SyntaxError", "'(' was never closed", ("model.py", 14)),
    "wrapped_message_chain.txt": Expect(
        "RuntimeError", "could not load shard", ("train.py", 20), causes=("FileNotFoundError",)
    ),
}


def test_every_sample_has_an_expectation() -> None:
    assert sorted(p.name for p in SAMPLES.glob("*.txt")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample(name: str) -> None:
    expect = EXPECTED[name]
    text = (SAMPLES / name).read_bytes().decode("utf-8")
    found = parse_tracebacks(text)
    assert found, "no traceback found"
    tb = found[-1]
    assert tb.exception.rsplit(".", 1)[-1] == expect.exception
    assert tb.message.startswith(expect.message)
    assert "\x1b" not in tb.message and not tb.message.startswith("E ")
    assert tuple(c.exception.rsplit(".", 1)[-1] for c in tb.causes) == expect.causes
    location = locate(tb, None)
    if expect.where is None:
        assert location is None
        return
    assert location is not None
    assert location.path.endswith(expect.where[0]), location
    assert location.line == expect.where[1]
    assert not location.in_workspace
    if expect.source is not None:
        frame = next(f for f in reversed(tb.frames) if f.line == location.line)
        assert frame.source == expect.source


def test_message_ends_before_trailing_logs() -> None:
    tb = parse_tracebacks((SAMPLES / "absl_first_line.txt").read_text())[-1]
    assert "shutting down" not in tb.message
    tb = parse_tracebacks((SAMPLES / "github_actions.txt").read_text())[-1]
    assert tb.message == "division by zero"


def test_jax_note_is_split_off() -> None:
    text = (
        'Traceback (most recent call last):\n  File "/p/x.py", line 3, in <module>\n'
        "    f(1)\nValueError: bad\nmore\n--------------------\n"
        "For simplicity, JAX has removed its internal frames from the traceback of the following "
        "exception. Set JAX_TRACEBACK_FILTERING=off to include these.\n"
    )
    tb = parse_tracebacks(text)[0]
    assert tb.message == "bad\nmore"
    assert tb.notes and tb.notes[0].startswith("For simplicity")


def test_several_tracebacks_in_one_text() -> None:
    one = (SAMPLES / "windows.txt").read_text()
    two = (SAMPLES / "syntax_error_import.txt").read_text()
    found = parse_tracebacks(f"{one}\nsome output\n{two}")
    assert [t.exception for t in found] == ["ZeroDivisionError", "SyntaxError"]


def _explain(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", "explain", "-", *args],
        input=text,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_cli_explain_without_traceback_says_so_and_exits_zero() -> None:
    done = _explain("just some program output\nno errors here\n")
    assert done.returncode == 0
    assert "no traceback" in done.stdout.lower()
    done = _explain("nothing\n", "--json")
    assert done.returncode == 0
    assert '"tracebacks": []' in done.stdout
