"""mark-static: every jit spelling, names from fields or from the line, extending, refusing."""

from __future__ import annotations

from tests.fixes.helpers import at_cursor, fixed, propose

DECORATED = """\
import jax
import jax.numpy as jnp


@jax.jit
def f(x, n):
    if n > 0:  # 🎉 traced branch
        return x
    return -x
"""


def test_bare_decorator_becomes_partial_with_import() -> None:
    assert fixed("mark-static", DECORATED, "if n > 0") == DECORATED.replace(
        "import jax.numpy as jnp\n", "import jax.numpy as jnp\nfrom functools import partial\n"
    ).replace("@jax.jit", '@partial(jax.jit, static_argnames=("n",))')


def test_title_names_the_argument() -> None:
    proposal = propose("mark-static", DECORATED, "if n > 0")
    assert proposal is not None
    assert proposal.title == "Mark 'n' as static (static_argnames)"
    assert proposal.safe


def test_name_from_fields_wins_over_the_line() -> None:
    result = fixed("mark-static", DECORATED, "return x", {"name": "n"})
    assert result is not None and 'static_argnames=("n",)' in result


def test_argnum_field_maps_to_the_parameter_name() -> None:
    result = fixed("mark-static", DECORATED, "return x", {"argnum": "1"})
    assert result is not None and 'static_argnames=("n",)' in result


def test_field_naming_a_non_parameter_is_refused() -> None:
    assert fixed("mark-static", DECORATED, "if n > 0", {"name": "y"}) is None


def test_existing_partial_import_and_functools_module() -> None:
    source = "import functools\nimport jax\n\n@jax.jit\ndef f(x, n):\n    return x[:n]\n"
    assert fixed("mark-static", source, "return x[:n]", {"name": "n"}) == (
        "import functools\nimport jax\n\n"
        '@functools.partial(jax.jit, static_argnames=("n",))\ndef f(x, n):\n    return x[:n]\n'
    )


def test_extends_an_existing_tuple_skipping_names_already_static() -> None:
    source = """\
from functools import partial
import jax

@partial(jax.jit, static_argnames=("m",))
def f(x, n, m):
    if n > m:
        return x
    return -x
"""
    assert fixed("mark-static", source, "if n > m") == source.replace('("m",)', '("m", "n")')


def test_extends_a_single_string_and_a_list() -> None:
    source = "import jax\n\n@jax.jit(static_argnames='m')\ndef f(x, n, m):\n    return x[n:m]\n"
    assert fixed("mark-static", source, "return", {"name": "n"}) == source.replace(
        "'m'", "('m', \"n\")"
    )
    source = (
        "import jax\n\ng = jax.jit(f, static_argnames=['m'])\ndef f(x, n, m):\n    return x[n:m]\n"
    )
    assert fixed("mark-static", source, "return", {"name": "n"}) == source.replace(
        "['m']", "['m', \"n\"]"
    )


def test_assigned_jit_call_gets_the_keyword() -> None:
    source = "import jax\n\ndef f(x, n):\n    return x.reshape(n)\n\ng = jax.jit(f)\n"
    assert fixed("mark-static", source, "reshape", {"arg": "n"}) == source.replace(
        "jax.jit(f)", 'jax.jit(f, static_argnames=("n",))'
    )


def test_inline_jit_call_with_trailing_comma_and_argnum() -> None:
    source = "from jax import jit\ny = jit(\n    f,\n    donate_argnums=0,\n)(x, 3)\n"
    assert fixed("mark-static", source, "y = jit", {"argnum": "1"}) == (
        "from jax import jit\ny = jit(\n    f,\n    donate_argnums=0, static_argnums=(1,),\n)(x, 3)\n"
    )


def test_ambiguous_line_is_refused() -> None:
    source = (
        "import jax\n\n@jax.jit\ndef f(x, n, m):\n    if n > m:\n        return x\n    return -x\n"
    )
    assert fixed("mark-static", source, "if n > m") is None


def test_already_static_is_not_offered_again() -> None:
    once = fixed("mark-static", DECORATED, "if n > 0")
    assert once is not None
    assert fixed("mark-static", once, "if n > 0") is None
    assert fixed("mark-static", once, "if n > 0", {"name": "n"}) is None


def test_not_jitted_is_not_offered() -> None:
    source = "def f(x, n):\n    if n > 0:\n        return x\n    return -x\n"
    assert fixed("mark-static", source, "if n > 0") is None


def test_refactoring_at_cursor_on_the_parameter() -> None:
    offered = at_cursor(DECORATED, "if n > 0", "n > 0")
    assert 'static_argnames=("n",)' in offered["mark-static"]
    assert "mark-static" not in at_cursor(DECORATED, "if n > 0", "> 0")
