"""at-set: every augmented operator with a `.at` method, targets we can and cannot rewrite."""

from __future__ import annotations

import pytest

from tests.fixes.helpers import at_cursor, fixed, propose


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("x[0] = 1.0", "x = x.at[0].set(1.0)"),
        ("x[i] += v", "x = x.at[i].add(v)"),
        ("x[i] -= v", "x = x.at[i].subtract(v)"),
        ("x[i] *= v", "x = x.at[i].multiply(v)"),
        ("x[i] /= v", "x = x.at[i].divide(v)"),
        ("x[i] **= 2", "x = x.at[i].power(2)"),
        ("x[1:3, ::2] = y * 2", "x = x.at[1:3, ::2].set(y * 2)"),
        ("x[..., 0] = 0", "x = x.at[..., 0].set(0)"),
        ("self.buf[i] = v", "self.buf = self.buf.at[i].set(v)"),
        ("x[0] = a, b", "x = x.at[0].set((a, b))"),
        (
            "x[idx] = f(\n        1,  # one\n    )",
            "x = x.at[idx].set(f(\n        1,  # one\n    ))",
        ),
    ],
)
def test_rewrites(line: str, expected: str) -> None:
    source = f"def step(x):\n    {line}\n    return x\n"
    assert fixed("at-set", source, line.splitlines()[0]) == (
        f"def step(x):\n    {expected}\n    return x\n"
    )


@pytest.mark.parametrize(
    "line",
    [
        "x[i] //= 2",  # no floor-divide method
        "x[i][j] = 1",  # chained subscript
        "a = x[0] = 1",  # chained assignment
        "x = 1",
        "f(x)[0] = 1",
        "x.at[0].set(1)",
    ],
)
def test_not_offered(line: str) -> None:
    assert fixed("at-set", f"def step(x):\n    {line}\n", line) is None


def test_title_safe_and_comment_and_emoji_kept() -> None:
    source = "s = '🎉'; x[0] = 1  # keep me\n"
    proposal = propose("at-set", source, "x[0]")
    assert proposal is not None and proposal.safe and proposal.title == "Use x.at[i].set(v)"
    assert fixed("at-set", source, "x[0]") == "s = '🎉'; x = x.at[0].set(1)  # keep me\n"


def test_twice_changes_nothing() -> None:
    once = fixed("at-set", "x[0] += 1\n", "x[0]")
    assert once == "x = x.at[0].add(1)\n"
    assert fixed("at-set", once, "x = x") is None


def test_refactoring_at_cursor() -> None:
    assert at_cursor("x[0] = 1\n", "x[0]", "x")["at-set"] == "x = x.at[0].set(1)\n"
