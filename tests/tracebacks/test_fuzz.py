"""Property tests: the parser never raises, returns a list, and stays linear on big inputs.
Time is bounded by hypothesis' generous deadline, never by a timed assertion."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jaxerr_ls.tracebacks import Traceback, parse_tracebacks
from jaxerr_ls.tracebacks.locate import locate

HERE = Path(__file__).parent
REAL = [p.read_text(encoding="utf-8") for p in sorted((HERE / "samples").glob("*.txt"))] + [
    p.read_text(encoding="utf-8")
    for p in sorted((HERE.parent / "corpus" / "out").glob("*.txt"))[::9]
]
# Pieces that steer random text into the parser's interesting states.
PIECES = [
    "Traceback (most recent call last):",
    '  File "/p/x.py", line 3, in f',
    '  File "/p/x.py", line 3',
    "    x = f(1)",
    "    ^^^^^^",
    "ValueError: bad",
    "SyntaxError: oops",
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
    "  + Exception Group Traceback (most recent call last):",
    "  | ",
    "  +-+---------------- 1 ----------------",
    "    | ",
    "-" * 75,
    "TypeError                                 Traceback (most recent call last)",
    "Cell In[3], line 5, in f(x)",
    "----> 5 y = f(x)",
    "_____ test_x _____",
    "E   ValueError: x",
    ">       f(x)",
    "x.py:3: in f",
    "╭──── Traceback (most recent call last) ────╮",
    "│ /p/x.py:3 in f │",
    "╰──────╯",
    "jax._src.traceback_util.UnfilteredStackTrace: ValueError: x",
    "(pid=1) ",
    "`",
    "\x1b[31m",
    "\r",
    "--------------------",
]

fragments = st.one_of(st.sampled_from(PIECES), st.text(max_size=40))
FAST = settings(
    max_examples=75,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow],
)


def _check(found: list[Traceback]) -> None:
    assert isinstance(found, list)
    for tb in found:
        assert isinstance(tb, Traceback)
        locate(tb, None)


@FAST
@given(st.text(max_size=2000))
def test_random_text(text: str) -> None:
    _check(parse_tracebacks(text))


@FAST
@given(st.lists(fragments, max_size=60), st.sampled_from(["\n", "\r\n", "\r", "\n\n"]))
def test_random_traceback_pieces(pieces: list[str], newline: str) -> None:
    _check(parse_tracebacks(newline.join(pieces)))


@FAST
@given(
    st.sampled_from(REAL),
    st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 40), st.sampled_from(PIECES + ["", "x"])),
        max_size=8,
    ),
)
def test_mutated_real_tracebacks(text: str, edits: list[tuple[int, int, str]]) -> None:
    for position, cut, insert in edits:
        position %= len(text) + 1
        text = text[:position] + insert + text[position + cut :]
    _check(parse_tracebacks(text))


@FAST
@given(st.sampled_from(REAL), st.integers(1, 200))
def test_truncated_real_tracebacks_keep_parsing(text: str, keep: int) -> None:
    _check(parse_tracebacks(text[: len(text) * keep // 200]))


BIG = settings(max_examples=4, deadline=timedelta(seconds=60), derandomize=True)


@BIG
@given(st.sampled_from(PIECES[:20] + ["a" * 999, "x" * 10**6, '"' * 5000]))
def test_one_megabyte_inputs(piece: str) -> None:
    text = "\n".join([piece] * max(1, 1_000_000 // (len(piece) + 1)))
    _check(parse_tracebacks(text))


def test_one_megabyte_of_real_tracebacks() -> None:
    text = "\n".join(REAL)
    text = text * max(1, 1_000_000 // len(text))
    found = parse_tracebacks(text)
    assert len(found) >= len(REAL)


def test_one_megabyte_single_lines() -> None:
    for line in ("Traceback (most recent call last):" + " " * 10**6, "E" + " x" * 500_000):
        _check(parse_tracebacks(line))
    _check(parse_tracebacks("File " + '"' * 10**6 + ", line 1"))
