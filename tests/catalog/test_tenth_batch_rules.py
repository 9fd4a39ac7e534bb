"""Rules the tenth field batch asked for once it joined the tuned corpus (and the paste forms of
earlier batches the same work reached), each on the public paste that showed the need
(`tests/field/pastes/`, verbatim, URLs in its index.json)."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from jaxerr_ls.tracebacks import parse_paste
from tests.field.measure_pastes import paste_text


def test_a_vs_code_error_copy_cut_inside_its_message(matcher: Matcher) -> None:
    """jax#24939: `{ "name": "FloatingPointError", "message": "invalid value (nan) ...` that
    stops before the copy closes."""
    [found] = explain_text(paste_text("948"), matcher)
    assert found.traceback.exception == "FloatingPointError"
    assert found.traceback.message.startswith("invalid value (nan) encountered in jit(log).")
    assert found.match is not None and found.match.entry.id == "debug-nans-invalid-value"


def test_context_line_numbers_left_in_brackets(matcher: Matcher) -> None:
    """mujoco#1484: VS Code's links lost their address (`--> [319]   raise FloatingPointError(`):
    the arrow line still gives the frame its source, and the raising frame names the entry."""
    [found] = explain_text(paste_text("949"), matcher)
    last = found.traceback.frames[-1]
    assert (last.line, last.function) == (319, "_check_special")
    assert last.source.startswith("raise FloatingPointError(")
    assert found.match is not None and found.match.entry.id == "debug-nans-invalid-value"
    assert found.match.by == "raise_site"


@pytest.mark.parametrize("number", ["323", "638", "642", "947", "950"])
def test_debug_nans_reports_reach_their_entry(number: str, matcher: Matcher) -> None:
    """jax#25701 (`in log`), jax#25519, jax#25299 (`in jit(f)`), brax#412 (`in jit(scan)`),
    jax#9092 (`in xla_call`, 2021)."""
    [found] = explain_text(paste_text(number), matcher)
    assert found.match is not None and found.match.entry.id == "debug-nans-invalid-value"
    name = found.traceback.message.split("encountered in ", 1)[1].split()[0]
    assert f"`{name}`" in found.match.entry.meaning  # the primitive or function, stated


@pytest.mark.parametrize(
    ("number", "entry"),
    [
        ("938", "static-arg-unhashable-object"),  # equinox#11: "occured" (respelt), a Module
        ("210", "static-arg-unhashable-container"),  # genjax#1179: a list, cut at its value
        ("209", "static-arg-unhashable-object"),  # the same thread: a Const, cut there too
        ("370", "static-arg-jax-array"),  # jax#6233: a `_DeviceArray`, "occured"
    ],
)
def test_unhashable_static_arguments_told_apart_by_type(
    number: str, entry: str, matcher: Matcher
) -> None:
    [found] = explain_text(paste_text(number), matcher)
    assert found.match is not None and found.match.entry.id == entry


def test_a_cut_message_of_a_template_opening_with_a_name(matcher: Matcher) -> None:
    """jax#13092: `solve() output pytree structure must match b, go` (cut), of the template
    `{func_name}() output pytree structure must match {expected_name}, got ...`."""
    [found] = explain_text(paste_text("941"), matcher)
    match = found.match
    assert match is not None and match.cut
    assert "output pytree structure must match" in match.entry.message
    assert match.fields.get("func_name") == "solve"


def test_a_short_cut_message_opening_with_a_long_value_names_nothing(matcher: Matcher) -> None:
    """The value before the template's words is a name, not a sentence: 40 characters or more
    read as a value would let any long text end in a template's first words."""
    text = "x" * 60 + "() output pytree structure must match b, go"
    assert matcher.match_cut("TypeError", text) is None


def test_jax_note_without_the_error_after_it(matcher: Matcher) -> None:
    """aaf#2, probdiffeq#744, jax-md#310: the paste stops after JAX's SimplifiedTraceback note
    (the error it introduces not copied); vision_transformer#127 and pymc#4646: a wrapper's
    header copied without its message. Each is explained as that note, saying where the error
    is, never as an error of its own."""
    for number in ("438", "765", "428", "674", "507"):
        [found] = explain_text(paste_text(number), matcher)
        assert found.match is not None
        assert found.match.entry.id == "jax-traceback-note-without-error", number
    solutions = " ".join(found.match.entry.solutions)
    assert "last line" in solutions and "JAX_TRACEBACK_FILTERING=off" in solutions


def test_the_note_before_a_copied_error_is_not_what_is_explained(matcher: Matcher) -> None:
    """jax#28752: the note, then the error it introduces (a cuDNN failure): the error."""
    [found] = explain_text(paste_text("204"), matcher)
    assert found.match is not None
    assert found.match.entry.id != "jax-traceback-note-without-error"


def test_a_wrapper_with_its_error_copied_is_unwrapped() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "a.py", line 3, in <module>\n'
        "    f(1)\n"
        "jax._src.traceback_util.UnfilteredStackTrace: TypeError: bad argument\n"
    )
    [traceback] = parse_paste(text)
    assert (traceback.exception, traceback.message) == ("TypeError", "bad argument")


@pytest.mark.parametrize(
    ("number", "entry"),
    [
        ("983", "resource-exhausted-out-of-memory"),  # flax#1733: a TPU's HBM table
        ("986", "native-crash-signal"),  # jax#13043: `*** SIGSEGV (@0x10), see ... received`
        ("951", "checkify-check-failed"),  # jax#10033: 2022's out-of-bounds wording
    ],
)
def test_runtime_reports_and_older_wordings(number: str, entry: str, matcher: Matcher) -> None:
    [found] = explain_text(paste_text(number), matcher)
    assert found.match is not None and found.match.entry.id == entry


def test_a_wrapper_carrying_a_bare_exception(matcher: Matcher) -> None:
    """dm-haiku#99: `FilteredStackTrace: Exception: Leaked trace MainTrace(0,DynamicJaxprTrace)`
    (JAX 0.2's tracer-leak check): the `Exception` it carries, the leak check's entry."""
    [found] = explain_text(paste_text("977"), matcher)
    assert found.traceback.exception == "Exception"
    assert found.match is not None and found.match.entry.message.startswith("Leaked {name}")


def test_vs_code_2022_notebook_frames() -> None:
    """equinox#69: `/path/scratch.ipynb Cell 11' in <module>` frames, VS Code's of 2022."""
    [traceback] = parse_paste(paste_text("830"))
    assert traceback.exception == "TypeError"
    whole = paste_text("830") + "\n---> 12 opt_state = optim.init(model)\n\nTypeError: bad\n"
    [traceback] = parse_paste(whole)
    assert traceback.frames[-1].path.endswith("scratch.ipynb Cell 11")
    assert (traceback.frames[-1].line, traceback.message) == (12, "bad")


def test_a_raising_frame_of_an_older_release_is_read_at_that_release_s_lines(
    matcher: Matcher,
) -> None:
    """jax#18780: `RuntimeError: Unable to ini` (cut), raised at `xla_bridge.py:350` in
    `backends` by JAX 0.3.x, where today's JAX raises nothing near that line: the older index's
    site names the error, and the explanation states the releases that raised it there."""
    [found] = explain_text(paste_text("807"), matcher)
    match = found.match
    assert match is not None and match.by == "raise_site"
    assert match.entry.message.startswith("Unable to initialize backend")
    assert match.entry.versions  # the older releases, joined (extend_entry)


def test_an_older_site_needs_a_raising_line(matcher: Matcher) -> None:
    """A frame of an older release whose line the paste does not show (no source) names nothing
    there, though the older release raised near that line: only a `raise` line says the error
    was raised there and not below it."""
    from jaxerr_ls.catalog.sites import match_raise_site
    from jaxerr_ls.tracebacks.model import Frame

    frame = Frame(
        "/usr/local/lib/python3.10/dist-packages/jax/_src/lib/xla_bridge.py",
        350,
        "backends",
        "",
    )
    assert match_raise_site(matcher, "RuntimeError", (frame,)) is None
