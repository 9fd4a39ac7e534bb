"""General rules the field corpus asked for, each on the public paste that showed the need
(`tests/field/pastes/`, verbatim, URLs in its index.json): a message cut short completed from the
raising line, a class only older releases raised, a class a library renamed, a class-less paste
in an older release's wording, a sentence typed without its full stop."""

from __future__ import annotations

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.catalog.classes import identified_words, match_by_class
from jaxerr_ls.catalog.sites import message_at_raise
from jaxerr_ls.catalog.templates import short_class
from jaxerr_ls.explain import explain_text
from jaxerr_ls.tracebacks import parse_tracebacks
from jaxerr_ls.tracebacks.model import Frame
from tests.field.measure_pastes import paste_text


def test_a_cut_message_is_completed_from_the_raising_line(matcher: Matcher) -> None:
    """flax#3147: `ValueError: parent must be None,` under `raise ValueError('parent must be
    None, Module or Scope')` in Flax's module.py."""
    [found] = explain_text(paste_text("138"), matcher)
    assert found.traceback.message == "parent must be None,"
    assert found.match is not None and found.match.by == "raise_site"
    assert found.match.entry.library == "flax"
    assert found.match.entry.message == "parent must be None, Module or Scope"


def test_a_message_the_raising_line_does_not_begin_is_not_completed() -> None:
    frame = Frame(
        "/venv/lib/python3.11/site-packages/flax/linen/module.py",
        1001,
        "__post_init__",
        "raise ValueError('parent must be None, Module or Scope')",
    )
    assert message_at_raise((frame,), "parent must be None,") == (
        "parent must be None, Module or Scope"
    )
    assert message_at_raise((frame,), "parent must be a Module") is None  # not its beginning
    assert message_at_raise((frame,), "parent") is None  # too short to say anything
    user = Frame("/home/u/model.py", 3, "f", frame.source)  # not a library's frame
    assert message_at_raise((user,), "parent must be None,") is None
    call = Frame(frame.path, 1001, "f", "check('parent must be None, Module or Scope')")
    assert message_at_raise((call,), "parent must be None,") is None  # no raise on the line


def test_a_class_only_older_releases_raised_names_its_entry(matcher: Matcher) -> None:
    """jax#19453 (JAX 0.4.20): Pallas's TritonLoweringException, a class JAX 0.4.26 and later
    no longer have; the paste is cut inside the equation."""
    found = explain_text(paste_text("143"), matcher)[-1]
    assert found.match is not None and found.match.by == "class"
    # The older error (0.4.19-0.4.23) is the curated lowering entry's: its pattern matches it.
    assert found.match.entry.id == "pallas-lowering-rule-failed"
    classes = {short_class(w.exception) for w in found.match.entry.wordings if w.exception}
    assert "TritonLoweringException" in classes


def test_an_older_error_a_curated_pattern_describes_joins_that_entry(matcher: Matcher) -> None:
    """JAX 0.1-0.2 raised `ValueError: jaxlib is version 0.1.69, but this version of jax
    requires version 0.1.74.` (ParallelFold#13); jaxlib-version-too-old's pattern describes it."""
    [found] = explain_text(paste_text("232"), matcher)
    assert found.match is not None and found.match.entry.id == "jaxlib-version-too-old"
    classes = {short_class(w.exception) for w in found.match.entry.wordings if w.exception}
    assert "ValueError" in classes


def test_a_renamed_library_class_names_its_entry(matcher: Matcher) -> None:
    """equinox#696: Equinox 0.11.4's `EqxRuntimeError` is today's EquinoxRuntimeError."""
    found = explain_text(paste_text("066"), matcher)[-1]
    assert found.match is not None and found.match.by == "class"
    assert found.match.entry.id == "equinox-runtime-error"


def test_a_classless_paste_in_an_older_wording(matcher: Matcher) -> None:
    """brax#306: only the message of JAX 0.2-0.4's TracerArrayConversionError was pasted."""
    [found] = explain_text(paste_text("195"), matcher)
    assert found.traceback.exception == ""
    assert found.match is not None and found.match.entry.id == "tracer-array-conversion"


def test_a_sentence_without_its_full_stop(matcher: Matcher) -> None:
    """numpyro#853: `IndexError: Array boolean indices must be concrete` (JAX 0.2 printed the
    full stop); a message that goes on after the sentence still does not match."""
    [found] = explain_text(paste_text("078"), matcher)
    assert found.match is not None and found.match.entry.id == "non-concrete-boolean-index"
    assert "IndexError" in found.match.entry.other_classes  # the class JAX 0.2 raised it as
    assert matcher.match("IndexError", "Array boolean indices must be concrete or else") is None


def test_parse_of_the_cut_paste_keeps_the_raising_frame() -> None:
    [tb] = parse_tracebacks(paste_text("138"))
    assert tb.frames[-1].source.startswith("raise ValueError(")


def test_a_message_typed_in_a_comment(matcher: Matcher) -> None:
    """equinox#213: `jax.grad(mlp)(point) #error: Gradient only defined for ...`; an exception
    line whose message quotes JAX's after its own label is still read with its class (ivy)."""
    [found] = explain_text(paste_text("076"), matcher)
    assert found.match is not None and found.match.entry.id == "grad-non-scalar-output"
    [ivy] = explain_text(paste_text("010"), matcher)
    assert ivy.traceback.exception.endswith("IvyBackendException")


def test_the_backend_log_cut_at_its_colon(matcher: Matcher) -> None:
    """grok-1: `INFO:jax._src.xla_bridge:Unable to initialize backend 'cuda':` (JAX logs the
    reason after the colon; the paste stops there)."""
    [found] = explain_text(paste_text("036"), matcher)
    assert found.match is not None
    assert found.match.entry.id == "cuda-backend-failed-to-initialize"


def test_pallas_on_a_platform_it_cannot_lower_to(matcher: Matcher) -> None:
    """jax#20908 (JAX 0.4.26's wording: "install jaxlib GPU 0.4.24 or newer"); the CPU wording
    stays with the entry whose example proves it (interpret mode)."""
    found = explain_text(paste_text("053"), matcher)[-1]
    assert found.match is not None and found.match.entry.id == "pallas-unsupported-platform"
    assert found.match.fields["platform"] == "tpu"
    cpu = matcher.match("ValueError", "Only interpret mode is supported on CPU backend.")
    assert cpu is not None and cpu.entry.id == "pallas-cpu-requires-interpret"


def test_a_users_file_named_like_the_library(matcher: Matcher) -> None:
    """optax#345: big_vision's own `optax.py` runs `optax.masked`: the name every Optax release
    has is missing from the file Python imported instead."""
    [found] = explain_text(paste_text("177"), matcher)
    assert found.match is not None and found.match.entry.id == "module-shadowed-by-local-file"
    assert found.match.fields["file"].endswith("big_vision/optax.py")


def test_no_shadowing_without_a_file_of_that_name(matcher: Matcher) -> None:
    from jaxerr_ls.catalog.shadow import match_shadowed

    message = "module 'optax' has no attribute 'masked'"
    installed = Frame("/venv/lib/python3.11/site-packages/optax.py", 3, "f", "optax.masked")
    other = Frame("/home/u/train.py", 3, "f", "optax.masked")
    assert match_shadowed(matcher, "AttributeError", message, (installed, other)) is None
    numpy = Frame("/home/u/numpy.py", 3, "f", "numpy.foo")  # not a library of JAX's stack
    assert (
        match_shadowed(matcher, "AttributeError", "module 'numpy' has no attribute 'foo'", (numpy,))
        is None
    )
    mine = Frame("/home/u/optax.py", 3, "f", "optax.masked")
    assert match_shadowed(matcher, "TypeError", message, (mine,)) is None
    found = match_shadowed(matcher, "AttributeError", message, (mine,))
    assert found is not None and found.fields["module"] == "optax"


def test_a_value_glued_to_the_next_word_is_not_read_as_cut(matcher: Matcher) -> None:
    """Before 0.2.10 Python refused a tracer as a list index, naming its type (jax#5853): the
    wording `... not {trace}Tracer` reaches the tracer entry, while the same sentence naming any
    other type is a whole message of Python's, not one cut before `Tracer`."""
    traced = matcher.match(
        "TypeError", "list indices must be integers or slices, not DynamicJaxprTracer"
    )
    assert traced is not None and traced.entry.id == "tracer-integer-conversion"
    assert traced.score == 100
    for other in ("str", "float", "tuple"):
        found = matcher.match("TypeError", f"list indices must be integers or slices, not {other}")
        assert found is None or found.entry.id != "tracer-integer-conversion", other
    # A value cut where a space follows it is still read as cut.
    text = "Sharding spec PartitionSpec('x',) implies that array axis 0 is partitioned 4"
    cut = matcher.match("ValueError", text)
    assert cut is not None and cut.entry.id == "device-put-sharding-not-divisible" and cut.cut


def test_a_runtime_error_cut_before_its_message_is_xlas_runtime_error(matcher: Matcher) -> None:
    """jax-windows-builder#34: a notebook's copy of `XlaRuntimeError` that stops inside the
    frames, before any status: the class names XLA's runtime and says where to look."""
    [found] = explain_text(paste_text("478"), matcher)
    assert found.traceback.exception.endswith("XlaRuntimeError")
    assert not found.traceback.message.strip()
    assert found.match is not None and found.match.by == "class"
    assert found.match.entry.id == "xla-runtime-error"
    how = identified_words(found.match, found.traceback.exception, message=found.traceback.message)
    assert "stops before the error's message" in how


def test_an_unknown_status_text_is_explained_by_its_status(matcher: Matcher) -> None:
    """jax#4131 (jaxlib 0.1.5x raised XLA's statuses as `RuntimeError` and worded the status
    `Invalid argument:`): an old text no index holds, named by its status's family."""
    found = explain_text(paste_text("461"), matcher)[-1]
    assert found.traceback.message.startswith("Invalid argument: Argument does not match host")
    assert found.match is not None and found.match.by == "class"
    assert found.match.entry.id == "xla-status-invalid-argument"
    how = identified_words(found.match, found.traceback.exception)
    assert "(RuntimeError, INVALID_ARGUMENT)" in how


def test_an_old_status_text_the_xla_of_2021_builds_is_found_by_its_words(
    matcher: Matcher,
) -> None:
    """jax#5228: `Invalid argument: Unknown NumPy type U size 8`, a wording XLA dropped after
    2021, was named by its status's family until the XLA of 2021 joined the catalog; its words
    now reach the curated entry for non-numeric data (strings, here) given to JAX."""
    found = explain_text(paste_text("334"), matcher)[-1]
    assert found.match is not None and found.match.by == "message"
    assert found.match.entry.id == "jnp-string-array"
    assert found.match.fields == {"kind": "U", "size": "8"}


def test_a_status_family_never_outranks_a_known_wording(matcher: Matcher) -> None:
    """The families are reached only when nothing else is: a RET_CHECK (jax#22484) and a
    callback's Python error carried by `INTERNAL` (jaxsim) keep their own entries, and a generic
    class without a status names no family."""
    for number, entry_id in (
        ("476", "xla-ret-check-failure"),
        ("109", "host-callback-python-error"),
    ):
        found = explain_text(paste_text(number), matcher)[-1]
        assert found.match is not None and found.match.entry.id == entry_id, number
    assert match_by_class(matcher, "RuntimeError", "something failed") is None
    assert match_by_class(matcher, "ValueError", "INTERNAL: something failed") is None
    assert matcher.match("XlaRuntimeError", "INTERNAL: a text no release printed") is None
    named = match_by_class(matcher, "XlaRuntimeError", "INTERNAL: a text no release printed")
    assert named is not None and named.entry.id == "xla-status-internal"
