"""Rules the ninth field batch asked for once it joined the tuned corpus (unseen through stop
31), each on the public paste that showed the need (`tests/field/pastes/`, verbatim, URLs in
its index.json)."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from jaxerr_ls.tracebacks.model import Frame
from tests.catalog.batch_rules import entry_found, named_for_sure
from tests.field.measure_pastes import paste_text


@pytest.mark.parametrize(
    ("number", "entry", "by"),
    [
        ("1087", "jaxlib-not-installed", "message"),  # jax#6071: `No module named 'jaxlib'`
        ("1089", "jaxlib-not-installed", "message"),  # equinox#178: JAX's own words, cut
        ("1088", "jaxlib-not-installed", "message"),  # datasets#5663: a pytest summary
        ("1094", "shared-library-glibc-too-old", "message"),  # jax#854: CentOS 7
        ("1095", "shared-library-glibc-too-old", "message"),  # jax#5272: without `required by`
        ("1079", "native-illegal-instruction", "message"),  # jax#6671: `>>> import jax`
        ("1045", "xla-ptx-version-not-recognized", "message"),  # xla#16431: `'+ptx86'`
        ("1093", "jax-import-failed", "raise_site"),  # jax#531: stops at `import jaxlib`
        ("1096", "jax-import-failed", "raise_site"),  # jax#4677: stops in jax's imports
        ("1086", "jax-import-failed", "raise_site"),  # ipython#15153: IPython 8 frames
    ],
)
def test_installation_failures_reach_their_entry(
    number: str, entry: str, by: str, matcher: Matcher
) -> None:
    assert entry_found(number, matcher) == (entry, by)


def test_jax_import_failure_says_where_it_stopped(matcher: Matcher) -> None:
    [found] = explain_text(paste_text("1093"), matcher)
    assert found.match is not None
    assert (
        found.match.where == "while `import jax` ran its module-level imports, at `import jaxlib`"
    )


def test_a_library_s_import_stays_version_skew(matcher: Matcher) -> None:
    """JAX's own frames under a library's `import` (optax importing chex importing jax) are the
    library's import failing: the library-skew entry, not JAX's."""
    from jaxerr_ls.catalog.imports import match_library_import

    frames = (
        Frame("train.py", 1, "<module>", "import optax"),
        Frame("/env/lib/python3.10/site-packages/optax/__init__.py", 17, "<module>", "from optax import contrib"),
        Frame("/env/lib/python3.10/site-packages/jax/experimental/__init__.py", 3, "<module>", "from jax.experimental import maps"),
    )  # fmt: skip
    found = match_library_import(matcher, "ImportError", "", frames)
    assert found is not None and found.entry.id == "library-jax-version-skew"
    assert found.fields["library"] == "optax"
    # A user's own module named like nothing of JAX's names nothing.
    assert match_library_import(matcher, "ImportError", "", frames[:1]) is None


@pytest.mark.parametrize(
    ("exception", "message", "entry"),
    [
        # Other packages' modules: the glibc entry says what the loader said, whoever needs it.
        (
            "ImportError",
            "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.28' not found (required by "
            "/opt/conda/lib/python3.7/site-packages/torch_xla/lib/libxla_computation_client.so)",
            "shared-library-glibc-too-old",
        ),
        # `Illegal instruction` inside another sentence is not the shell's report.
        ("RuntimeError", "the kernel hit an Illegal instruction while tracing", None),
    ],
)  # fmt: skip
def test_look_alikes(exception: str, message: str, entry: str | None, matcher: Matcher) -> None:
    assert named_for_sure(matcher, exception, message) == entry


def test_another_package_missing_is_not_jaxlib_missing(matcher: Matcher) -> None:
    found = matcher.match("ModuleNotFoundError", "No module named 'jaxlibs'")
    assert found is None or found.entry.id != "jaxlib-not-installed"


def test_a_message_printed_between_a_program_s_lines(matcher: Matcher) -> None:
    """jax#2663: the program caught the error and printed it between its own output lines, no
    class; the line that is, alone, a (2020) message names its entry."""
    [found] = explain_text(paste_text("1019"), matcher)
    assert found.traceback.exception == ""
    assert found.match is not None
    assert found.match.entry.message.startswith("Primal inputs to reverse-mode differentiation")


def test_jax_s_note_printed_in_a_pytest_summary_is_not_the_error(matcher: Matcher) -> None:
    """numpyro#2067: the summary's `FAILED ... - flax.errors.TraceContextError: ...` lines with
    JAX's note between them: the error is Flax's, not the note."""
    found = explain_text(paste_text("605"), matcher)
    assert found and found[-1].match is not None
    assert found[-1].match.entry.id == "nnx-trace-context"


def test_an_error_before_jax_s_note_when_the_copy_stops_after_it(matcher: Matcher) -> None:
    """jax#20236: `KeyReuseError: ...`, then JAX's note, then a traceback cut before its last
    line: the error is the KeyReuseError (JAX raises it again after the note)."""
    [found] = explain_text(paste_text("1034"), matcher)
    assert found.traceback.exception == "jax.errors.KeyReuseError"
    assert found.match is not None and found.match.entry.id == "random-key-reuse"
    assert found.traceback.frames[-1].function == "uniform"


def test_a_raising_line_s_opening_names_its_entry(matcher: Matcher) -> None:
    """DMFF#82: IPython 8 frames whose context lost its indentation, cut inside the raising
    frame of a release whose lines the index does not keep; the f-string the line raises
    begins one entry's wording of that function."""
    [found] = explain_text(paste_text("1018"), matcher)
    assert found.traceback.exception == "TypeError"
    assert found.traceback.frames[-1].function == "_check_input_dtype_revderiv"
    assert found.match is not None and found.match.entry.id == "grad-integer-input"
    assert found.match.by == "raise_site"


def test_a_raising_line_s_opening_must_be_one_entry_s(matcher: Matcher) -> None:
    from jaxerr_ls.catalog.sites import match_literal_at_site

    def frame(source: str) -> tuple[Frame, ...]:
        path = "/env/site-packages/jax/_src/api.py"
        return (Frame(path, 1120, "_check_input_dtype_revderiv", source),)

    # Words every entry of the function begins with, a short opening, another class: nothing.
    assert (
        match_literal_at_site(matcher, "TypeError", "", frame('raise TypeError(f"{name} requires '))
        is None
    )
    assert (
        match_literal_at_site(
            matcher, "ValueError", "", frame('raise ValueError(f"{name} requires real- or complex')
        )
        is None
    )
    # Once the message was copied, the message decides.
    assert (
        match_literal_at_site(
            matcher,
            "TypeError",
            "grad requires",
            frame('raise TypeError(f"{name} requires real- or complex'),
        )
        is None
    )


def test_an_error_written_as_the_text_s_opening_comment(matcher: Matcher) -> None:
    """jax#10044: `# ValueError: Non-hashable static arguments ...` and the rest of its message
    on the lines after, uncommented."""
    [found] = explain_text(paste_text("1006"), matcher)
    assert found.traceback.exception == "ValueError"
    assert found.traceback.message.endswith("TypeError: unhashable type: 'TensorFlowTracer'")
    assert found.match is not None and "Non-hashable static arguments" in found.match.entry.message


def test_a_comment_naming_no_class_is_not_an_error() -> None:
    from jaxerr_ls.tracebacks.fragments import commented_exception

    assert commented_exception(["# TODO: fix this", "x = 1"]) is None
    assert commented_exception(["x = f(y)", "# ValueError: later"]) is None  # not the opening


def test_a_message_without_its_class_written_as_comments(matcher: Matcher) -> None:
    """jax#14367 quotes pjit's log line as a comment (`# 2023-02-09 ... E ... pjit ...`); the
    message is read without the comment marks, as the class-less text it is. Code with a comment
    among it is no such message."""
    from jaxerr_ls.tracebacks.fragments import commented_message

    [found] = explain_text(paste_text("1998"), matcher)
    assert found.match is not None and "fastpath" in found.match.entry.id
    assert commented_message(["# TODO: fix this", "x = 1"]) is None
    comment = commented_message(["# jax.experimental.shard_map is deprecated.", "#  Use ..."])
    assert comment is not None and comment.exception == ""
    assert comment.message == "jax.experimental.shard_map is deprecated.\nUse ..."


def test_a_diff_s_added_log_lines(matcher: Matcher) -> None:
    """jax#39095: a pull request adding a log to the docs, every line after a diff's `+`."""
    [found] = explain_text(paste_text("1070"), matcher)
    assert found.traceback.message.startswith("E0929 17:42:48.594192 1044529 coordination_service")
    assert found.match is not None and found.match.entry.library == "xla"
    from jaxerr_ls.tracebacks.prefixes import strip_prefixes

    # Lines of which only some start with `+` are not a diff's (a table, a sum).
    assert strip_prefixes(["+----+", "| ab |", "+----+"]) == ["+----+", "| ab |", "+----+"]


def test_a_python_warning_ends_at_the_line_that_warned(matcher: Matcher) -> None:
    """mpx#11: gymnasium's warnings, the program's output, then XLA's error log line and a
    traceback cut short: the warnings do not swallow the log line, which is the error (its
    `Failed to load in-memory CUBIN ...: CUDA_ERROR_OUT_OF_MEMORY`: the device's memory)."""
    [found] = explain_text(paste_text("1071"), matcher)
    assert found.traceback.exception == ""
    assert found.match is not None
    assert found.match.entry.id == "resource-exhausted-out-of-memory"


def test_python_s_index_error_while_shard_map_words_its_spec_error(matcher: Matcher) -> None:
    """jax#18823: `IndexError: list index out of range` in shard_map's `_spec_rank_error`."""
    [found] = explain_text(paste_text("1008"), matcher)
    assert found.match is not None and found.match.entry.id == "shard-map-spec-too-long"
    assert found.match.by == "raise_site"
    # The same words raised by the user's own code name nothing.
    [own] = explain_text(
        'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n'
        "    x = items[4]\nIndexError: list index out of range\n",
        matcher,
    )
    assert own.match is None
