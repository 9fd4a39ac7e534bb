"""The incremental checker finds exactly what a from-scratch check finds, at every step of edit
sequences: edits that change which functions are traced (a `jax.jit(f)` added or removed
elsewhere, a traced caller, a redefinition), call sites in other statements, imports, lines
inserted above, texts that do not parse while typing, and files it checks whole."""

from __future__ import annotations

import pytest

from jaxerr_ls.rules import check_source
from jaxerr_ls.rules.incremental import IncrementalChecker

from ..library_code import LIBRARIES, required_library_files
from .edit_walk import edit_walk

BASE = '''"""A training script."""
import jax
import jax.numpy as jnp
from functools import partial

try:
    import wandb
except ImportError:
    wandb = None


def loss(params, x):
    if x > 0:
        return params * x
    return params


def helper(n):
    return jnp.zeros(n)


class Trainer:
    def __init__(self):
        self.step = jax.jit(self._step)

    def _step(self, x, mode):
        return x * 2


def main():
    t = Trainer()
    t.step(1.0, "train")
    return helper(3)
'''

JIT_LOSS = "\nfast_loss = jax.jit(loss)\n"
CALL_LOSS = 'fast_loss(1.0, "a")\n'
OUTER = "\n\n@jax.jit\ndef outer(n):\n    return helper(n)\n"
AGAIN = "\n\ndef helper(n):\n    return n\n"
AXIS = "\n\ndef total(x):\n    return jax.lax.psum(x, 'i')\n\n\ntotal(1.0)\n"
MAPPED = "\nmapped = jax.vmap(total, axis_name='i')\n"
NUMPY = "import numpy as np\n"


def steps() -> list[tuple[str, str]]:
    """(what the step does, the text after it), each step an edit of the text before it."""
    out = [("open", BASE)]

    def then(what: str, text: str) -> None:
        out.append((what, text))

    then("jit loss from another statement", BASE + JIT_LOSS)
    then("pass a string to the jitted loss", BASE + JIT_LOSS + CALL_LOSS)
    then("remove the jit: loss untraced, call kept", BASE + CALL_LOSS)
    then("jit it again", BASE + JIT_LOSS + CALL_LOSS)
    with_outer = BASE + JIT_LOSS + CALL_LOSS + OUTER
    then("a jitted caller makes helper traced", with_outer)
    then("helper defined twice: the name is ambiguous", with_outer + AGAIN)
    then("the second helper removed", with_outer)
    then("lines inserted at the top", "# header\n\n\n" + with_outer)
    then("the header removed", with_outer)
    typed = ""
    for char in "\n\ndef late(y):\n    return jnp.sum(np.asarray(y))\n":
        typed += char
        then(f"typing {char!r}", with_outer + typed)
    then("jit the typed function", with_outer + typed + "\nlate_fast = jax.jit(late)\n")
    then(
        "import numpy: np.asarray on a tracer",
        with_outer.replace("import jax\n", "import jax\n" + NUMPY)
        + typed
        + "\nlate_fast = jax.jit(late)\n",
    )
    current = out[-1][1]
    then("a collective nothing binds", current + AXIS)
    then("vmap binds the axis elsewhere", current + AXIS + MAPPED)
    then("vmap removed", current + AXIS)
    then("the method alias renamed", (current + AXIS).replace("self.step =", "self.run ="))
    then("the alias back", current + AXIS)
    then("a local import: the file is checked whole", current + "\n\ndef g():\n    import os\n")
    then(
        "key reuse checks on: checked whole",
        current + '\njax.config.update("jax_debug_key_reuse", True)\n'
        "k = jax.random.key(0)\na = jax.random.normal(k)\nb = jax.random.normal(k)\n",
    )
    joined = (current + AXIS).replace("\ntotal(1.0)", "\nwarm = 1; total(1.0)")
    then("a statement joined onto the line of another", joined)
    then("an unclosed bracket: nothing parses", current + "\nbroken = (\n")
    then("closed", current + "\nbroken = (1,)\n")
    return out


def test_each_step_matches_a_check_from_scratch() -> None:
    checker = IncrementalChecker()
    seen: set[str] = set()
    for what, text in steps():
        got = checker.check(text)
        assert got == check_source(text, checker.rules), what
        seen |= {f.entry for f in got}
    # The sequence exercises findings across statements, not only quiet code.
    assert seen == {
        "tracer-bool-conversion",
        "jit-argument-invalid-type",
        "traced-shape-not-concrete",
        "tracer-array-conversion",
        "unbound-axis-name",
        "random-key-reuse",
    }


def test_findings_follow_the_edits_that_change_what_is_traced() -> None:
    checker = IncrementalChecker()
    by_step = {what: checker.check(text) for what, text in steps()}
    entries = {what: {f.entry for f in found} for what, found in by_step.items()}
    assert "tracer-bool-conversion" not in entries["open"]
    assert "tracer-bool-conversion" in entries["jit loss from another statement"]
    assert "jit-argument-invalid-type" in entries["pass a string to the jitted loss"]
    assert "tracer-bool-conversion" not in entries["remove the jit: loss untraced, call kept"]
    assert "traced-shape-not-concrete" in entries["a jitted caller makes helper traced"]
    assert "traced-shape-not-concrete" not in entries["helper defined twice: the name is ambiguous"]
    assert "tracer-array-conversion" in entries["import numpy: np.asarray on a tracer"]
    assert "unbound-axis-name" in entries["a collective nothing binds"]
    assert "unbound-axis-name" not in entries["vmap binds the axis elsewhere"]
    # `t.step(1.0, "train")` in main: a string to the method jitted through an alias in
    # another statement; quiet once the alias is renamed.
    call = BASE.splitlines().index('    t.step(1.0, "train")')
    assert [(f.entry, f.line) for f in by_step["open"]] == [("jit-argument-invalid-type", call)]
    assert "jit-argument-invalid-type" in entries["the alias back"]
    renamed = by_step["the method alias renamed"]
    assert "jit-argument-invalid-type" not in {f.entry for f in renamed if f.line == call + 1}
    assert "unbound-axis-name" in entries["a statement joined onto the line of another"]
    assert by_step["an unclosed bracket: nothing parses"] == []


def test_an_edit_reanalyses_only_its_component() -> None:
    blocks = "".join(
        f"\n\n@jax.jit\ndef step_{n}(x):\n    return jnp.sin(x) * {n}\n" for n in range(50)
    )
    text = "import jax\nimport jax.numpy as jnp\n" + blocks
    checker = IncrementalChecker()
    checker.check(text)
    assert checker.analysed == 50
    edited = text.replace("return jnp.sin(x) * 7\n", "if x > 0:\n        return x\n    return x\n")
    found = checker.check(edited)
    assert (checker.analysed, checker.reused) == (1, 49)
    assert [f.entry for f in found] == ["tracer-bool-conversion"]
    assert found == check_source(edited, checker.rules)
    # A line inserted above moves every finding below it, nothing is re-analysed.
    moved = checker.check("# note\n" + edited)
    assert checker.analysed == 0
    assert [f.line for f in moved] == [f.line + 1 for f in found]


@pytest.mark.parametrize("seed", range(6))
def test_random_edits_of_the_training_script(seed: int) -> None:
    text = steps()[-1][1]
    checker = IncrementalChecker()
    for step, edited in enumerate(edit_walk(text, 40, seed)):
        assert checker.check(edited) == check_source(edited, checker.rules), (seed, step)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_random_edits_of_library_files(name: str) -> None:
    files = required_library_files(name)
    for number, path in enumerate(files[::8]):
        text = path.read_text(errors="replace")
        checker = IncrementalChecker()
        for step, edited in enumerate(edit_walk(text, 6, number)):
            got = checker.check(edited)
            assert got == check_source(edited, checker.rules), (str(path), step)


def _groups(text: str) -> list[list[str]]:
    """The components of `text`, each as the first line of its statements."""
    import ast

    from jaxerr_ls.analysis.units import components, interface, split_units
    from jaxerr_ls.resolve import scan_imports

    lines = text.splitlines(keepends=True)
    units = split_units(ast.parse(text), lines)
    bindings = scan_imports(text)
    faces = [interface(unit, bindings) for unit in units]
    return [[units[k].text.splitlines()[0] for k in group] for group in components(faces)]


def test_statements_are_linked_only_through_names_the_model_reads() -> None:
    text = (
        "import jax\n\n"
        "x = 3\n\n"
        "def f(x):\n    return x\n\n"  # its own parameter: not the module's x
        "def g(y):\n    return y + x\n\n"  # reads the module's x
        "def h(y):\n    return y\n\n"
        "fast = jax.jit(h)\n\n"  # makes h traced
        "def k(y):\n    return fast(y)\n\n"  # calls the alias: a call site of h
        "class A:\n    def step(self, y):\n        return y\n\n"
        "def use(a):\n    return a.step(1)\n"  # `a.step(...)`: maybe a call of A.step
    )
    assert _groups(text) == [
        ["x = 3", "def g(y):"],
        ["def f(x):"],
        ["def h(y):", "fast = jax.jit(h)", "def k(y):"],
        ["class A:", "def use(a):"],
    ]
