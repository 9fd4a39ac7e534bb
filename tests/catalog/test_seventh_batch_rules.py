"""Rules the seventh field batch asked for once it joined the tuned corpus, each on the public
paste that showed the need (`tests/field/pastes/`, verbatim, URLs in its index.json)."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.catalog.sites import message_stated_at_raise
from jaxerr_ls.explain import explain_text
from jaxerr_ls.tracebacks import parse_paste
from jaxerr_ls.tracebacks.model import Frame
from tests.field.measure_pastes import paste_text


def test_a_message_quoted_in_a_reply_is_read_without_the_quote(matcher: Matcher) -> None:
    """jax#5319: `> The functions being transformed should not save ...`, the second line of
    the leaked-tracer message, quoted in a reply."""
    [found] = explain_text(paste_text("775"), matcher)
    assert not found.traceback.message.startswith(">")
    assert found.match is not None and found.match.entry.id == "unexpected-tracer-leak"


@pytest.mark.parametrize("number", ["829", "796", "778"])
def test_a_reply_quoting_a_reply_reads_as_the_paste(number: str) -> None:
    """Every line quoted twice (`> > `), as a reply to a reply shows a paste: read as the paste."""
    text = paste_text(number)
    quoted = "\n".join(f"> > {line}" if line.strip() else line for line in text.split("\n"))
    assert [(t.exception, t.message) for t in parse_paste(quoted)] == [
        (t.exception, t.message) for t in parse_paste(text)
    ]


def test_a_class_defined_in_a_function_is_an_exception_line() -> None:
    """jax#23884: `jaxlib.mlir._mlir_libs._site_initialize.<locals>.MLIRError: Verification
    failed:`, the chain cut after it."""
    [traceback] = parse_paste(paste_text("829"))
    assert traceback.exception == "jaxlib.mlir._mlir_libs._site_initialize.<locals>.MLIRError"
    assert traceback.message.startswith("Verification failed:\nerror: ")
    assert traceback.frames[-1].function == "lower_jaxpr_to_func"


@pytest.mark.parametrize("number", ["772", "773"])
def test_a_jax_class_printed_without_its_module(number: str, matcher: Matcher) -> None:
    """jax#24730, jax#36766: `InconclusiveDimensionOperation: Symbolic dimension ...` (a class
    whose name ends in no `Error`) with no traceback around it."""
    found = explain_text(paste_text(number), matcher)[0]
    assert found.traceback.exception == "InconclusiveDimensionOperation"
    assert found.match is not None
    assert found.match.entry.exception.endswith("InconclusiveDimensionOperation")


def test_a_name_wrapped_onto_its_own_line_is_resolved(matcher: Matcher) -> None:
    """jax#24478: `module 'jax.interpreters.ad' has no attribute\\n'recast_to_float0'`: the API
    history still says the name was removed."""
    [found] = explain_text(paste_text("778"), matcher)
    assert found.match is not None and found.match.entry.id == "removed-api"
    assert found.match.fields["name"] == "jax.interpreters.ad.recast_to_float0"


def test_a_vscode_notebook_cut_before_its_message_reads_the_raising_line(
    matcher: Matcher,
) -> None:
    """optimistix#37: VS Code's `____ Cell 4 line 9` frames, the library's frames elided, the
    paste stopping after `--> 305 raise ValueError("No arrays to thread error on to.")`."""
    [found] = explain_text(paste_text("796"), matcher)
    assert found.traceback.exception == "ValueError"
    assert found.traceback.message == ""
    assert [f.path for f in found.traceback.frames] == ["Cell 4", "Cell 4", "Cell 4"]
    assert found.match is not None and found.match.by == "raise_site"
    assert found.match.entry.library == "equinox"
    assert found.match.entry.message == "No arrays to thread error on to."


def test_a_raising_line_of_another_class_or_without_a_literal_says_nothing() -> None:
    line = 'raise ValueError("No arrays to thread error on to.")'
    frame = Frame("Cell 4", 2, "", line)
    assert message_stated_at_raise("ValueError", (frame,)) == "No arrays to thread error on to."
    assert message_stated_at_raise("TypeError", (frame,)) is None
    assert message_stated_at_raise("ValueError", (Frame("Cell 4", 2, "", "raise err"),)) is None
    called = Frame("Cell 4", 2, "", 'check("No arrays to thread error on to.")')
    assert message_stated_at_raise("ValueError", (called,)) is None


def test_a_paste_that_is_an_exceptions_repr(matcher: Matcher) -> None:
    """efppo#8: `ValueError("User-provided restore item and on-disk value metadata tree structures
    do not match:\\nalg_cfg: ...`, printed with `repr`, hard-wrapped by the terminal and cut."""
    [found] = explain_text(paste_text("786"), matcher)
    assert found.traceback.exception == "ValueError"
    assert found.traceback.message.startswith(
        "User-provided restore item and on-disk value metadata tree structures do not match:\n"
        "alg_cfg:\n    - Source: MISSING"
    )
    assert found.match is not None and found.match.entry.library == "orbax"


def test_code_that_builds_an_exception_is_no_repr() -> None:
    [reading] = parse_paste('raise ValueError("User-provided restore item")')
    assert reading.exception == ""


@pytest.mark.parametrize(
    ("number", "logged"),
    [("679", "failed to create cublas handle: {ret}"), ("783", "failed call to cuInit: {res}")],
)
def test_a_log_error_line_cut_short_names_what_its_file_logs_there(
    number: str, logged: str, matcher: Matcher
) -> None:
    """jax#40487 (`E0905 ... cuda_blas.cc:197] failed`), jax#9859 (`... cuda_driver.cc:282]
    failed call to c`, a release whose line numbers differ from the sources' by 14)."""
    [found] = explain_text(paste_text(number), matcher)
    assert found.match is not None and found.match.cut
    assert found.match.entry.message == logged
    assert found.match.entry.title.startswith("ERROR log")


@pytest.mark.parametrize(
    "line",
    [
        "E0905 20:29:09.564522  946840 cuda_blas.cc:197] fail",  # too little copied
        "W0905 20:29:09.564522  946840 cuda_blas.cc:197] failed",  # not an error line
        "E0905 20:29:09.564522  946840 cuda_blas.cc:900] failed",  # nothing logged near
        "E0905 20:29:09.564522  946840 other_file.cc:197] failed",  # not the file that logs it
    ],
)
def test_a_cut_log_line_that_says_too_little_names_nothing(line: str, matcher: Matcher) -> None:
    assert [e.match for e in explain_text(line, matcher)] in ([], [None])


def test_a_short_message_is_confirmed_by_the_function_that_raised_it(matcher: Matcher) -> None:
    """iree-jax#77: `RuntimeError: Unknown backend iree` (too little literal text to name an
    error anywhere) raised by `raise RuntimeError(f"Unknown backend {platform}")` in
    `xla_bridge._get_backend_uncached` of a 2022 release; the paste starts inside a frame."""
    [found] = explain_text(paste_text("312"), matcher)
    assert found.traceback.frames[0].function == "_get_backend_uncached"
    assert found.match is not None and found.match.by == "raise_site"
    assert any(w.message == "Unknown backend {platform}" for w in found.match.entry.wordings)


def test_a_short_message_raised_elsewhere_is_not_confirmed(matcher: Matcher) -> None:
    text = paste_text("312")
    mine = text.replace(
        "/home/woongq/jax/lib/python3.10/site-packages/jax/_src/xla_bridge.py", "/home/me/run.py"
    )
    assert [e.match for e in explain_text(mine, matcher)] == [None]
    other = text.replace("Unknown backend iree", "Unknown platform iree")
    assert [e.match for e in explain_text(other, matcher)] == [None]


@pytest.mark.parametrize(
    ("number", "entry"),
    [
        ("653", "vmap-axis-rank-too-small"),  # jax#1991: pmap of a scalar, 2019's pxla.py
        ("658", "vmap-axis-rank-too-small"),  # algorithmic-efficiency#813: api._get_axis_size
        ("644", "traced-shape-not-concrete"),  # jax#5373: a NumPy int as a shape, core.py
    ],
)
def test_pythons_words_raised_in_a_jax_function_name_its_error(
    number: str, entry: str, matcher: Matcher
) -> None:
    [found] = explain_text(paste_text(number), matcher)
    assert found.match is not None and found.match.by == "raise_site"
    assert found.match.entry.id == entry
    # The same words from the user's own code name nothing.
    frames = found.traceback.frames
    mine = paste_text(number).replace(frames[-1].path, "/home/me/train.py")
    assert [e.match for e in explain_text(mine, matcher)] == [None]
