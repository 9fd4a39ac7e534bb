"""Rules and entries the eleventh field batch asked for once it joined the tuned corpus (measured
unseen first: 69 of 98), each on the public paste that showed the need (`tests/field/pastes/`,
verbatim, URLs in its index.json)."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from tests.catalog.batch_rules import printed_and_entry
from tests.field.measure_pastes import paste_text


@pytest.mark.parametrize(
    ("number", "exception", "entry"),
    [
        # dolphin#253: `import jax.config` somewhere under JAX 0.4.25.
        ("1362", "AttributeError", "jax-config-submodule-imported"),
        # jax#16813: a README diff's added lines, jax2tf's shape assertion.
        ("1383", "", "shape-poly-input-mismatch"),
        # scib-metrics#135: the warning's JAX still has the name (it warned).
        ("1385", "DeprecationWarning", "deprecated-api"),
        # equinox#411: jaxlib's pytree message cut inside its last value.
        ("1388", "ValueError", "tree-map-structure-mismatch"),
        # jax#9644, orbax#1225, alpa#946, recovar#64 (twice): runtime and library errors.
        ("1439", "RuntimeError", "cuda-ptx-jit-compiler-not-found"),
        (
            "1446",
            "absl.flags._exceptions.UnparsedFlagAccessError",
            "orbax-flag-read-before-parsing",
        ),
        ("1450", "", "executable-built-for-another-device"),
        ("1457", "", "ffi-target-not-registered"),
        ("1458", "RuntimeWarning", "cuda-plugin-jaxlib-mismatch"),
        # DESC#1334, nixpkgs#256717, jax#24901: no Python exception, a crash.
        ("1371", "", "xla-cpu-jit-cannot-allocate"),
        ("1373", "", "native-crash-fatal-error"),
        ("1455", "", "native-crash-fatal-error"),
        # jaxwell#11: JAX 0.3's operator refusing a NamedTuple, raised at JAX's own line.
        ("1492", "TypeError", "pytree-arithmetic-with-array"),
        # colabtools#3060: Colab's legacy TPU driver, the message in two backticked lines.
        ("1502", "TypeError", "colab-tpu-driver-buffer"),
        # mctx_learning_demo#4: Haiku's `type[Any]` annotation imported on Python 3.8.
        ("1472", "TypeError", "python-older-than-the-code"),
        # jax#22522, grok-1#102 (and the thirteenth's jax#507, grok-1#24, rlax#7): pip's resolver.
        ("1456", "", "jax-release-not-installable"),
        ("1460", "", "jax-release-not-installable"),
        ("1319", "", "jax-release-not-installable"),
        ("1320", "", "jax-release-not-installable"),
        ("1322", "", "jax-release-not-installable"),
    ],
)
def test_eleventh_batch_pastes(number: str, exception: str, entry: str, matcher: Matcher) -> None:
    assert printed_and_entry(number, matcher) == (exception, entry)


def test_a_cut_message_names_its_template_once_it_reaches_the_last_value(
    matcher: Matcher,
) -> None:
    cut = matcher.match("ValueError", "Tuple arity mismatch: 2 != 3; tuple: (State(")
    assert cut is not None and cut.cut and cut.entry.id == "tree-map-structure-mismatch"
    # Stopping before the last literal piece is a short prefix: not enough to tell.
    assert matcher.match("ValueError", "Tuple arity mismatch: 2 != 3") is None


def test_a_cut_runtime_message_is_read_without_its_status(matcher: Matcher) -> None:
    text = 'executable is built for device CUDA:0 of type "A100"; cannot run it on device CUDA:1 of'
    found = matcher.match("", text)
    assert found is not None and found.cut
    assert found.entry.id == "executable-built-for-another-device"


def test_a_warning_is_read_at_a_release_that_still_has_the_name(matcher: Matcher) -> None:
    found = explain_text(paste_text("1385"), matcher)[-1]
    assert found.match is not None
    assert found.match.fields["status"] == "deprecated"
    assert found.match.fields["release"] == "0.4.23"
    # JAX's advice is whole: "i.e." ends no sentence.
    assert found.match.entry.title.endswith("(i.e. keys created with jax.random.key)")


def _module_level(function: str, message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "    import mylib\n"
        '  File "/env/lib/python3.9/site-packages/mylib/core.py", line 7, in ' + function + "\n"
        "    def run(x: int | None = None) -> None:\n"
        f"TypeError: {message}\n"
    )


def test_syntax_of_a_newer_python_is_named_by_a_modules_top_level(matcher: Matcher) -> None:
    union = "unsupported operand type(s) for |: 'type' and 'NoneType'"
    [found] = explain_text(_module_level("<module>", union), matcher)
    assert found.match is not None and found.match.entry.id == "python-older-than-the-code"
    assert found.match.fields["needs"] == "3.10" and found.match.fields["python"] == "3.9"
    assert found.match.fields["package"] == "mylib"
    # Inside a function the same words are an ordinary `|` between two values: not this.
    [inside] = explain_text(_module_level("run", union), matcher)
    assert inside.match is None or inside.match.entry.id != "python-older-than-the-code"


def test_pips_words_name_jaxs_packages_only(matcher: Matcher) -> None:
    other = "ERROR: Could not find a version that satisfies the requirement torch==1.2 (from versions: none)"
    assert explain_text(other, matcher) == [] or all(
        e.match is None for e in explain_text(other, matcher)
    )
