"""wrap-jit: the call/assignment form, the decorator form, imports, and where it must not apply."""

from __future__ import annotations

from tests.fixes.helpers import at_cursor, fixed

PROGRAM = '''\
"""Eager shard_map with a Ref."""
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("x",))


def body(x):
    ref = jax.new_ref(x)  # 🎉 the Ref
    ref[...] += 1
    return ref[...]


f = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())
print(f(jnp.arange(4.0)))
'''

WRAPPED = PROGRAM.replace(
    "f = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())",
    "f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P()))",
)


def test_assignment_line() -> None:
    assert fixed("wrap-jit", PROGRAM, "f = jax.shard_map") == WRAPPED


def test_call_line_wraps_the_shard_map_that_made_the_callee() -> None:
    assert fixed("wrap-jit", PROGRAM, "print(f(") == WRAPPED


def test_line_in_the_body_wraps_the_shard_map_of_that_body() -> None:
    assert fixed("wrap-jit", PROGRAM, "ref = jax.new_ref") == WRAPPED


def test_already_wrapped_is_not_offered() -> None:
    for at in ("f = jax", "print(f(", "ref = jax.new_ref"):
        assert fixed("wrap-jit", WRAPPED, at) is None


def test_inline_shard_map_call() -> None:
    source = "import jax\ny = jax.shard_map(body, mesh=m, out_specs=P())(x)\n"
    assert fixed("wrap-jit", source, "y =") == (
        "import jax\ny = jax.jit(jax.shard_map(body, mesh=m, out_specs=P()))(x)\n"
    )


def test_aliases_and_from_imports() -> None:
    source = (
        "import jax as jx\nfrom jax import shard_map\nf = shard_map(body, mesh=m, out_specs=s)\n"
    )
    assert fixed("wrap-jit", source, "f =") == (
        "import jax as jx\nfrom jax import shard_map\nf = jx.jit(shard_map(body, mesh=m, out_specs=s))\n"
    )


def test_from_import_jit_is_used() -> None:
    source = "from jax import jit, shard_map\nf = shard_map(body, mesh=m, out_specs=s)\n"
    assert fixed("wrap-jit", source, "f =") == (
        "from jax import jit, shard_map\nf = jit(shard_map(body, mesh=m, out_specs=s))\n"
    )


def test_decorated_shard_map_gets_jit_on_top() -> None:
    source = """\
import jax
from functools import partial


@partial(jax.shard_map, mesh=mesh, in_specs=P(), out_specs=P())
def body(x):
    ref = jax.new_ref(x)
    return ref[...]


print(body(x))
"""
    expected = source.replace("\n@partial", "\n@jax.jit\n@partial")
    assert fixed("wrap-jit", source, "ref = jax.new_ref") == expected
    assert fixed("wrap-jit", source, "print(body(") == expected
    assert fixed("wrap-jit", expected, "ref = jax.new_ref") is None


def test_decorator_form_adds_import_after_docstring() -> None:
    source = '"""Module doc."""\n\n\ndef step(x):\n    return x + 1\n'
    assert fixed("wrap-jit", source, "return x") == (
        '"""Module doc."""\nimport jax\n\n\n@jax.jit\ndef step(x):\n    return x + 1\n'
    )


def test_decorator_form_keeps_indentation_and_other_decorators() -> None:
    source = "import jax\n\nclass M:\n    @staticmethod\n    def step(x):\n        return x  # c\n"
    assert fixed("wrap-jit", source, "return x") == (
        "import jax\n\nclass M:\n    @jax.jit\n    @staticmethod\n    def step(x):\n"
        "        return x  # c\n"
    )


def test_import_goes_after_existing_imports_and_keeps_shebang() -> None:
    source = "#!/usr/bin/env python\nimport os\nimport sys\n\nf = jax_shard(x)\n\ndef g(x):\n    return x\n"
    assert fixed("wrap-jit", source, "return x") == (
        "#!/usr/bin/env python\nimport os\nimport sys\nimport jax\n\nf = jax_shard(x)\n\n"
        "@jax.jit\ndef g(x):\n    return x\n"
    )


def test_not_offered_outside_a_function_without_shard_map() -> None:
    assert fixed("wrap-jit", "import jax\nx = 1\n", "x = 1") is None


def test_not_offered_when_jax_means_something_else() -> None:
    source = "jax = object()\ndef g(x):\n    return x\n"
    assert fixed("wrap-jit", source, "return x") is None  # an import would be shadowed
    source = "from mylib import jax\ndef g(x):\n    return x\n"
    assert fixed("wrap-jit", source, "return x") is None


def test_as_a_refactoring_only_on_the_def_line() -> None:
    source = "import jax\n\ndef g(x):\n    return x\n"
    assert "wrap-jit" not in at_cursor(source, "return x", "x")
    assert (
        at_cursor(source, "def g", "g")["wrap-jit"]
        == "import jax\n\n@jax.jit\ndef g(x):\n    return x\n"
    )


def test_twice_changes_nothing() -> None:
    once = fixed("wrap-jit", PROGRAM, "f = jax.shard_map")
    assert once is not None
    assert fixed("wrap-jit", once, "f = jax.jit") is None
