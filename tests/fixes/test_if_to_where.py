"""if-to-where: branches that are one expression each become jnp.where; everything else is left."""

from __future__ import annotations

import pytest

from tests.fixes.helpers import at_cursor, fixed, propose

HEAD = "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "def f(x):\n    if x > 0:\n        return x\n    else:\n        return -x\n",
            "def f(x):\n    return jnp.where(x > 0, x, -x)\n",
        ),
        (
            "def f(x):\n    if x > 0:\n        return x\n    return -x\n",
            "def f(x):\n    return jnp.where(x > 0, x, -x)\n",
        ),
        (
            "def f(x):\n    if x.sum() > 0:\n        y = x * 2\n    else:\n        y = x\n    return y\n",
            "def f(x):\n    y = jnp.where(x.sum() > 0, x * 2, x)\n    return y\n",
        ),
        (
            "def f(x):\n    if x > 0: y = x\n    else: y = 0\n    return y  # 🎉 kept\n",
            "def f(x):\n    y = jnp.where(x > 0, x, 0)\n    return y  # 🎉 kept\n",
        ),
        (
            "def f(x):\n    s = '🎉'; y = x if x > 0 else -x  # kept\n    return y\n",
            "def f(x):\n    s = '🎉'; y = jnp.where(x > 0, x, -x)  # kept\n    return y\n",
        ),
    ],
)
def test_rewrites(body: str, expected: str) -> None:
    at = "if x" if "    if" in body else "y = x if"
    assert fixed("if-to-where", HEAD + body, at) == HEAD + expected


@pytest.mark.parametrize(
    "body",
    [
        "def f(x):\n    if x > 0:\n        return x\n    elif x < -1:\n        return 1\n    return -x\n",
        "def f(x):\n    if x > 0:\n        y = x\n    else:\n        z = x\n    return x\n",
        "def f(x):\n    if x > 0:\n        print(x)\n        return x\n    return -x\n",
        "def f(x):\n    if x > 0:  # why\n        return x\n    return -x\n",
        "def f(x):\n    if x > 0:\n        return x\n    # negative\n    return -x\n",
        "def f(x):\n    if x > 0:\n        return x\n    print(x)\n",
        "def f(x):\n    if x > 0:\n        y += x\n    else:\n        y += 1\n",
    ],
)
def test_not_offered(body: str) -> None:
    assert fixed("if-to-where", HEAD + body, "if x") is None


def test_adds_import_and_says_it_is_unsafe() -> None:
    source = "def f(x):\n    if x > 0:\n        return 1 / x\n    return x - 1\n"
    proposal = propose("if-to-where", source, "if x")
    assert proposal is not None and not proposal.safe
    assert proposal.title == "Use jnp.where (changes behaviour: evaluates both branches)"
    assert fixed("if-to-where", source, "if x") == (
        "import jax.numpy as jnp\ndef f(x):\n    return jnp.where(x > 0, 1 / x, x - 1)\n"
    )


def test_safe_when_both_branches_evaluate_safely_either_way() -> None:
    source = "def f(x):\n    if x > 0:\n        return x + 1\n    return x - 1\n"
    proposal = propose("if-to-where", source, "if x")
    assert proposal is not None and proposal.safe
    assert proposal.title == "Use jnp.where (element-wise choice)"
    for unsafe in ("jnp.log(x)", "x ** 0.5", "g(x)", "x / 2"):
        changed = HEAD + source.replace("x + 1", unsafe)
        found = propose("if-to-where", changed, "if x")
        assert found is not None and not found.safe, unsafe
    source = "def f(x):\n    if x > 0:\n        return x + 1\n    return x - 1\n"
    assert fixed("if-to-where", source.replace("+ 1", ", 1").replace("- 1", ", 2"), "if x") is None


def test_at_cursor_and_twice() -> None:
    source = HEAD + "def f(x):\n    if x > 0:\n        return x\n    return -x\n"
    once = at_cursor(source, "if x", "x >")["if-to-where"]
    assert "jnp.where(x > 0, x, -x)" in once
    assert fixed("if-to-where", once, "jnp.where") is None
