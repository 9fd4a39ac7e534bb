"""A generated entry names an error by its message only when the message says something of its
own: not Python's own wording, not two common words (`catalog/specific.py`). Where the raising
frame is shown, the raise site still names it.

The pastes are the field corpus's (`tests/field/pastes/`, each copied from its public thread);
the tracebacks of the raise-site tests are produced here by running real programs.
"""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog.older import older_catalog
from jaxerr_ls.catalog.specific import (
    COMMON_WORDS,
    PYTHON_WORDINGS,
    python_worded,
    says_enough,
    too_few_words,
)
from jaxerr_ls.catalog.templates import Match, TemplateError, compile_template
from jaxerr_ls.catalog.xla import strip_status
from jaxerr_ls.explain import explain_text

PASTES = Path(__file__).resolve().parent.parent / "field" / "pastes"

# A program for each of CPython's wordings (some print another wording on other releases).
PROGRAMS = {
    "attr_obj": "(1.5).shape",
    "attr_module": "import math; math.shape",
    "attr_type": "int.shape",
    "attr_not_writable": "(1).real = 2",
    "setattr_slots": "class A:\n    __slots__ = ()\nA().x = 1",
    "property_setter": "class A:\n    @property\n    def p(self): return 1\nA().p = 2",
    "readonly": "def f(): pass\nf.__globals__ = 1",
    "takes_pos": "def f(a): pass\nf(1, 2)",
    "takes_none": "def f(): pass\nf(1)",
    "takes_range": "def f(a, b=1): pass\nf(1, 2, 3)",
    "takes_kwonly": "def f(a, *, k): pass\nf(1, 2, k=3)",
    "unexpected_kw": "def f(a): pass\nf(1, z=2)",
    "multiple_values": "def f(a): pass\nf(1, a=2)",
    "positional_only": "exec('def f(a, /): pass')\nf(a=1)",
    "missing_pos": "def f(a, b): pass\nf()",
    "missing_kwonly": "def f(*, k): pass\nf()",
    "no_arguments": "class A: pass\nA(1)",
    "no_keywords": "len(obj=1)",
    "exactly_one": "len(1, 2)",
    "object_init": "object.__init__(object(), 1)",
    "at_most": "range(1, 2, 3, 4)",
    "after_star": "def f(*a): pass\nf(*1)",
    "after_stars": "def f(**k): pass\nf(**1)",
    "init_return": "class A:\n    def __init__(self): return 1\nA()",
    "keywords_strings": "dict(**{1: 2})",
    "binop": "1.5 * {}",
    "binop_pow": "{} ** 2",
    "unary": "-{}",
    "compare": "1 < 'a'",
    "concat": "'a' + 1",
    "unhashable": "{[]: 1}",
    "not_callable": "f = 1\nf()",
    "not_subscriptable": "x = 1\nx[0]",
    "not_iterable": "iter(1)",
    "not_iterator": "next(1)",
    "argument_not_iterable": "1 in 1",
    "item_assignment": "(1,)[0] = 2",
    "item_deletion": "del (1,)[0]",
    "unpack_non_iterable": "a, b = 1",
    "no_len": "len(1)",
    "as_integer": "range('a')",
    "list_indices": "x = None\n[1][x]",
    "string_indices": "'a'['b']",
    "descriptor": "type.__dict__['mro'](1)",
    "int_literal": "int('a')",
    "float_convert": "float('a')",
    "int_arg": "int(None)",
    "float_arg": "float(None)",
    "nan": "int(float('nan'))",
    "infinity": "int(float('inf'))",
    "int_to_float": "float(10**400)",
    "index_sized": "[0] * (10**100)",
    "unpack_few": "a, b, c = (1, 2)",
    "unpack_many": "a, b = (1, 2, 3)",
    "list_index": "[][0]",
    "tuple_index": "()[0]",
    "string_index": "''[0]",
    "range_index": "range(0)[0]",
    "list_assignment": "x = []\nx[0] = 1",
    "pop_empty": "[].pop()",
    "list_remove": "[].remove(1)",
    "tuple_index_missing": "().index(1)",
    "not_in_list": "[].index(1)",
    "max_empty": "max([])",
    "zip_shorter": "list(zip([1], [], strict=True))",
    "zip_longer": "list(zip([], [1], strict=True))",
    "dict_changed": "d = {1: 1}\nfor k in d: d[2] = 2",
    "sequence_item": "''.join([1])",
    "reduce_empty": "import functools; functools.reduce(lambda a, b: a, [])",
    "division": "1 / 0",
    "float_division": "1.0 / 0",
    "int_division": "1 // 0",
    "modulo": "1 % 0",
    "math_domain": "import math; math.sqrt(-1)",
    "name": "undefined_name_x",
    "unbound": "def f():\n    x\n    x = 1\nf()",
    "no_module": "import no_such_module_x",
    "cannot_import": "from types import no_such_name_x",
    "cannot_import_unknown": "import sys, types\nsys.modules['zz'] = types.ModuleType('zz')\n"
    "from zz import no_such_name_x",
    "abstract": "import abc\nclass A(abc.ABC):\n    @abc.abstractmethod\n    def f(self): pass\nA()",
    "recursion": "def f(): f()\nf()",
    "generator_stop": "def g():\n    yield next(iter([]))\nlist(g())",
    "not_all_converted": "'%d' % (1, 2)",
    "not_enough_arguments": "'%d %d' % (1,)",
    "format_code": "format(1, 'q')",
    "isinstance_arg": "isinstance(1, 1)",
    "attribute_name": "getattr(1, 2)",
    "frozen_field": "import dataclasses\n@dataclasses.dataclass(frozen=True)\n"
    "class A:\n    x: int = 0\nA().x = 1",
}
# Run in each interpreter: every program's exception class and message, as JSON.
_RUNNER = textwrap.dedent(
    """
    import json, sys, warnings
    warnings.simplefilter("ignore")
    out = {}
    for name, code in json.loads(sys.stdin.read()).items():
        try:
            exec(compile(code, "<program>", "exec"), {})
        except Exception as error:
            out[name] = [type(error).__name__, str(error)]
    print(json.dumps(out))
    """
)
# Wordings only some releases print, and those releases: checked where one of them is found.
SOME_RELEASES = {
    "'{}' object has no attribute '{}' and no __dict__ for setting new attributes": "3.13",
    "can't set attribute '{}'": "3.10",
    "can't set attribute": "3.7 3.8 3.9",
    "int() argument must be a string, a bytes-like object or a number, not '{}'": "3.7 3.8 3.9",
    "float() argument must be a string or a number, not '{}'": "3.7 3.8 3.9",
    "string indices must be integers": "3.7 3.8 3.9 3.10",
    "descriptor '{}' requires a '{}' object but received a '{}'": "3.7",
    "{}() iterable argument is empty": "3.12 3.13",
    "reduce() of empty sequence with no initial value": "3.7 3.8 3.9",
    "local variable '{}' referenced before assignment": "3.7 3.8 3.9 3.10",
    "Can't instantiate abstract class {} without an implementation for abstract method{} {}": (
        "3.12 3.13"
    ),
    "isinstance() arg 2 must be a type or tuple of types": "3.7 3.8 3.9",
    "getattr(): attribute name must be string": "3.7 3.8 3.9 3.10",
}
# Printed by releases before 3.10 instead (`zip(strict=)` is 3.10's): the others' wordings.
_NEWER_ONLY = {"zip_shorter", "zip_longer", "positional_only"}


def _interpreters() -> dict[str, str]:
    """The running CPython and any other 3.7+ found under pyenv, by minor release."""
    found = {f"{sys.version_info[0]}.{sys.version_info[1]}": sys.executable}
    root = os.path.expanduser("~/.pyenv/versions")
    for path in sorted(glob.glob(os.path.join(root, "3.*", "bin", "python3"))):
        minor = ".".join(Path(path).parent.parent.name.split(".")[:2])
        if int(minor.split(".")[1]) >= 7:
            found.setdefault(minor, path)
    return found


def _wording_regex(wording: str) -> re.Pattern[str]:
    parts = re.split(r"(\{n?\})", wording)
    return re.compile(
        "".join(
            {"{}": ".*?", "{n}": r"\d+"}.get(part, re.escape(part)) if i % 2 else re.escape(part)
            for i, part in enumerate(parts)
        )
    )


@pytest.fixture(scope="module")
def printed() -> dict[str, dict[str, tuple[str, str]]]:
    """By release: what each program raised."""
    out = {}
    for minor, python in _interpreters().items():
        run = subprocess.run(
            [python, "-c", _RUNNER],
            input=json.dumps(PROGRAMS),
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        out[minor] = {name: (cls, msg) for name, (cls, msg) in json.loads(run.stdout).items()}
    return out


def test_every_message_of_the_programs_is_a_wording_of_the_list(
    printed: dict[str, dict[str, tuple[str, str]]],
) -> None:
    regexes = [_wording_regex(w) for w in PYTHON_WORDINGS]
    unknown = [
        (minor, name, message)
        for minor, raised in printed.items()
        for name, (cls, message) in raised.items()
        if cls != "SyntaxError" and not any(r.fullmatch(message) for r in regexes)
    ]
    assert not unknown
    # Every program raised, on the running release at least.
    current = printed[f"{sys.version_info[0]}.{sys.version_info[1]}"]
    assert set(PROGRAMS) - set(current) <= (_NEWER_ONLY if sys.version_info < (3, 10) else set())


def test_every_wording_of_the_list_is_printed_by_a_program(
    printed: dict[str, dict[str, tuple[str, str]]],
) -> None:
    messages = [message for raised in printed.values() for _, message in raised.values()]
    unseen = []
    for wording in PYTHON_WORDINGS:
        releases = SOME_RELEASES.get(wording)
        if releases is not None and not set(releases.split()) & set(printed):
            continue  # none of the releases that print it is here
        if not any(_wording_regex(wording).fullmatch(message) for message in messages):
            unseen.append(wording)
    assert not unseen


def _pieces(template: str) -> list[str]:
    return compile_template(template)[2]


@pytest.mark.parametrize(
    "template",
    [
        "'{type(self).__name__}' object has no attribute '{name}'",  # flax-431b4fef
        "{self.__class__.__name__} has no attribute {name}",  # jax-4cddf50a
        "unsupported operand type(s) for *: {type(self).__name__} and {type(other).__name__}",
        "unhashable type: {type(self)}",  # jax-c3be05ed
        "__init__() takes {expected_num_args + 1} positional arguments but {num_args + 1} were"
        " given",  # flax-2d14ccc3
        "merge() missing 1 required positional argument: 'state'",  # flax-f16a7596
    ],
)
def test_python_wordings_of_generated_templates(template: str) -> None:
    assert python_worded(_pieces(template)) and not says_enough(_pieces(template))


@pytest.mark.parametrize(
    "template",
    [
        '"{self.__class__.__name__}" object has no attribute "{name}"',  # Flax's own quotes
        "safe_zip() argument {i} is longer than argument 1",
        "'{t}' object has no attribute '{n}'. Did you mean to call setup?",
        "index {i} out of range.",
        "expected {node_data}, got {prefix_node_data}",
    ],
)
def test_what_is_not_python_s_wording(template: str) -> None:
    assert not python_worded(_pieces(template))


@pytest.mark.parametrize(
    ("template", "few"),
    [
        ("{dep} not found.", True),  # orbax-62f245db
        ("Unsupported dtype: {dtype}", True),
        ("Expected {in_tree_expected}, got {in_tree}", True),
        ("Leaked trace {t()}", False),  # a word few templates use
        ("CustomCall failed: {arg0}", False),
        ('Invalid Filter: "{filter_like}"', False),
        ("Checkpoint for step {step} already exists.", False),  # enough words
    ],
)
def test_too_few_words(template: str, few: bool) -> None:
    assert too_few_words(_pieces(template)) is few


def test_common_words_still_fit_the_catalog() -> None:
    """`COMMON_WORDS` was measured on the catalog: words 100+ templates use. Regenerating the
    catalog drifts the counts a little; a word used by twice that many must be in the list and
    every word of the list must still be used by half as many."""
    catalog = load_catalog()
    older = older_catalog(catalog)
    messages = {
        (entry.id, strip_status(text) if entry.library == "xla" else text)
        for source in (catalog, *((older,) if older is not None else ()))
        for entry in source.entries
        for text in (entry.message, *(w.message for w in entry.wordings))
    }
    uses: Counter[str] = Counter()
    for _, text in messages:
        try:
            pieces = compile_template(text)[2]
        except TemplateError:
            continue
        uses.update({w.lower() for w in re.findall(r"[A-Za-z]{2,}", " ".join(pieces))})
    assert not {w for w, n in uses.items() if n >= 200} - COMMON_WORDS
    assert not {w for w in COMMON_WORDS if uses[w] < 50}


def _match(name: str, matcher: Matcher) -> Match | None:
    """The entry the paste's (last) explanation names; None when nothing is explained (a text
    without its class is reported only when it matched)."""
    found = explain_text((PASTES / name).read_text(encoding="utf-8"), matcher)
    return found[-1].match if found else None


def _not_by_generated_message(match: Match | None) -> bool:
    return match is None or match.entry.curated or match.by != "message"


@pytest.mark.parametrize(
    ("paste", "wrong"),
    [
        # Python's own AttributeError, not Flax's Variable (jax#2530, a vmap over a float)
        ("450-jax-2530-vmap-float-no-shape.txt", "flax-431b4fef"),
        ("148-jax-3877-vmap-message-attributeerror.txt", "flax-431b4fef"),
        ("030-python-trace-weakset-nonjax.txt", "flax-431b4fef"),  # not JAX at all
        ("469-jax-5847-xmap-in-jit-nonetype-items.txt", "flax-431b4fef"),
        # `module 'jax' has no attribute '_src'`: Python's, not a tracer's attribute
        ("178-optax-453-jax-no-src.txt", "jax-4cddf50a"),
        ("091-bridge-data-orbax-default-driver.txt", "jax-4cddf50a"),
        ("509-pymc-extras-298-pytensor-arrayimpl-no-data.txt", "jax-4cddf50a"),
        # a float times a dict, in optax's code: Python's operator error
        ("286-optax-808-float-times-dict-inline.txt", "jax-1febf547"),
        ("285-equinox-458-optax-float-times-linear.txt", "jax-1febf547"),
        ("402-optax-1286-optimistic-adam-schedule-operand-inline.txt", "jax-6f2df085"),
        ("071-equinox-1097-unhashable-list-inline.txt", "jax-c3be05ed"),
        # numpyro's class called with too many arguments: not Flax's kw_only dataclass
        ("508-rethinking-numpyro-15-mcmc-init-positional-args.txt", "flax-2d14ccc3"),
        # XLA's "ptx kernel not found" is no missing Orbax benchmark dependency
        ("408-jax-16546-ptx-kernel-not-found-cc89.txt", "orbax-62f245db"),
    ],
)
def test_python_s_wording_is_not_explained_as_a_library_s(
    paste: str, wrong: str, matcher: Matcher
) -> None:
    match = _match(paste, matcher)
    assert match is None or match.entry.id != wrong
    assert _not_by_generated_message(match)


@pytest.mark.parametrize(
    ("paste", "entry"),
    [
        # Flax's own double quotes: the wording of its newer releases, whose message grows on
        # two paths (`msg += ...`), read since stop 35.
        ("329-flax-1685-setup-attribute.txt", "flax-36ddc5f9"),
        ("166-jax-11828-cuda-prng-symbol-not-found.txt", "xla-internal-customcall-failed-33ee66"),
        ("396-flax-949-invalid-filter-typeerror-before.txt", "flax-1946d392"),
    ],
)
def test_a_generated_wording_of_its_own_still_names_its_error(
    paste: str, entry: str, matcher: Matcher
) -> None:
    match = _match(paste, matcher)
    assert match is not None and match.entry.id == entry
    assert match.by == "message"


def _run(program: str, tmp_path: Path, **env: str) -> str:
    script = tmp_path / "program.py"
    script.write_text(textwrap.dedent(program), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
        cwd=tmp_path,
    )
    assert run.returncode != 0
    return run.stderr


def test_flax_s_python_worded_raise_is_named_by_its_site(tmp_path: Path, matcher: Matcher) -> None:
    """A linen Module given too many positional arguments: Flax's kw_only dataclass raises
    Python's wording itself, and the traceback shows that frame."""
    pytest.importorskip("flax")
    text = _run(
        """
        import flax.linen as nn


        class Dense2(nn.Module):
            features: int


        Dense2(4, 5)
        """,
        tmp_path,
    )
    [found] = explain_text(text, matcher)
    assert found.traceback.message == "__init__() takes 2 positional arguments but 3 were given"
    assert found.match is not None and found.match.entry.id == "flax-2d14ccc3"
    assert found.match.by == "raise_site"
    assert found.location is not None and found.location.line == 9


def test_a_tracer_s_attribute_is_named_by_the_curated_entry_not_the_generated_text(
    tmp_path: Path, matcher: Matcher
) -> None:
    """A missing attribute of a tracer: JAX's `Tracer.__getattr__` raises it. The generated
    entry's text (`X has no attribute y`, a shape Python's own `module 'jax' has no attribute
    '_src'` also fits) names nothing by itself; the curated entry for JAX values' missing
    attributes names it (its pattern says `...Tracer`), filtered or not."""
    program = """
        import jax
        import jax.numpy as jnp


        @jax.jit
        def f(x):
            return x.no_such_attribute


        f(jnp.ones(3))
        """
    unfiltered = explain_text(_run(program, tmp_path, JAX_TRACEBACK_FILTERING="off"), matcher)
    found = unfiltered[-1]
    assert found.traceback.message == "DynamicJaxprTracer has no attribute no_such_attribute"
    filtered = explain_text(_run(program, tmp_path), matcher)[-1]
    for match in (found.match, filtered.match):
        assert _not_by_generated_message(match)
        assert match is not None and match.entry.id == "jax-array-has-no-attribute"
