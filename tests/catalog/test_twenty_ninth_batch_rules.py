"""Entries the twenty-ninth field batch asked for (`tests/field/holdout/1311-1479`, read as it
came before any of them was written), and what stop 41 read from earlier pastes, each on the
public paste that showed the need, with a text each must leave alone."""

from __future__ import annotations

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from tests.field.measure_pastes import HOLDOUT, paste_text


def _found(matcher: Matcher, name: str, held_out: bool = True) -> tuple[str | None, dict[str, str]]:
    text = paste_text(name, HOLDOUT) if held_out else paste_text(name)
    found = explain_text(text, matcher)[-1]
    return (found.match.entry.id, found.match.fields) if found.match else (None, {})


def _entry_of(matcher: Matcher, cls: str, message: str) -> str | None:
    found = matcher.match(cls, message)
    return found.entry.id if found is not None else None


def test_llvm_aborting_the_process_after_other_output(matcher: Matcher) -> None:
    """jax#15951: IPython prompts, LLVM's warnings, then `LLVM ERROR: 64-bit code requested ...`
    and the shell's `Abort trap: 6`; jax#19825 (tuned): two MLIRs in one process."""
    entry, fields = _found(matcher, "1457")
    assert entry == "llvm-fatal-error"
    assert fields["what"].startswith("64-bit code requested on a subtarget")
    entry, fields = _found(matcher, "1985", held_out=False)
    assert entry == "llvm-fatal-error" and "different dialects" in fields["what"]
    # The more specific entry of LLVM's JIT running out of memory keeps its text (DESC#1334).
    line = "LLVM ERROR: JIT session error: Cannot allocate memory"
    match = explain_text(line, matcher)[-1].match
    assert match is not None and match.entry.id == "xla-cpu-jit-cannot-allocate"


def test_a_primitive_rule_called_with_another_releases_parameters(matcher: Matcher) -> None:
    """ferminet#96 (JAX 0.4.36 added `sharding` to broadcast_in_dim's rules) and jax#842; jax#34249
    in the tuned corpus. Python's words name the rule; any other function's stay unexplained."""
    assert _found(matcher, "1334")[0] == "primitive-rule-signature-changed"
    assert _found(matcher, "517")[0] == "primitive-rule-signature-changed"
    assert _found(matcher, "748", held_out=False)[0] == "primitive-rule-signature-changed"
    for message in (
        "_body_fn() got an unexpected keyword argument 'solve'",
        "Data.__init__() got an unexpected keyword argument 'contact'",
        "_vjp_pullback_wrapper() takes 5 positional arguments but 6 were given",
    ):
        assert _entry_of(matcher, "TypeError", message) != "primitive-rule-signature-changed"


def test_an_array_attribute_whose_closing_quote_the_paste_lost(matcher: Matcher) -> None:
    """PDEBench#83: `... object has no attribute 'loc` at the end of the paste."""
    entry, fields = _found(matcher, "1354")
    assert entry == "jax-array-has-no-attribute" and fields["name"] == "loc"
    # Without its quote, the name must end the message: words after it are another text.
    message = "'ArrayImpl' object has no attribute 'loc and more"
    assert _entry_of(matcher, "AttributeError", message) != "jax-array-has-no-attribute"


def test_jaxlib_before_0_1_66_with_flatbuffers_2(matcher: Matcher) -> None:
    """DESC#82: `jaxlib/pocketfft.py` calling `builder.EndVector(n)` under flatbuffers 2."""
    assert _found(matcher, "1332")[0] == "jaxlib-flatbuffers-2"
    # The opposite mismatch (code for flatbuffers 2 on 1.12) is another error.
    message = "EndVector() missing 1 required positional argument: 'vectorNumElems'"
    assert _entry_of(matcher, "TypeError", message) != "jaxlib-flatbuffers-2"


def test_jaxlibs_mlir_bindings_failing_to_import(matcher: Matcher) -> None:
    """ColabFold#231: a Colab runtime upgraded under a loaded jaxlib, the one line pasted."""
    entry, _ = _found(matcher, "1311")
    assert entry == "jaxlib-mlir-imports-failed"
    assert matcher.catalog.by_id[entry].exception == "RuntimeError"


def test_an_older_releases_raise_line_names_its_own_words(matcher: Matcher) -> None:
    """jax#22990 (tuned): the paste starts inside a frame's line (`"/content/...", line 191, in
    FlaxDDPMScheduler`, its `File ` cut) and stops at `AttributeError: module 'jax.ra`. The frames
    are read; the last is deprecations.py's `raise AttributeError(f"module {module!r} has no
    attribute {name!r}")` at line 54, where JAX 0.10.2 raises a removed name's own message: the
    raise's words pick the entry that says them, not the nearest line's."""
    text = paste_text("622")
    found = explain_text(text, matcher)[-1]
    assert found.traceback.frames and found.match is not None
    assert found.match.by == "raise_site"
    entry = matcher.catalog.by_id[found.match.entry.id]
    assert " has no attribute " in entry.message and entry.id != "lax-pvary-removed"


def test_cpp_bad_alloc_is_the_hosts_memory(matcher: Matcher) -> None:
    """t5x#1004: `MemoryError: std::bad_alloc` from `buffer_from_pyval`, gin's `In call to
    configurable 'train'` line after it; a longer C++ name is another text."""
    entry, _ = _found(matcher, "205")
    assert entry == "host-memory-bad-alloc"
    assert _entry_of(matcher, "MemoryError", "std::bad_allocator_traits") != entry


def test_equal_log_records_are_no_wrapped_message(matcher: Matcher) -> None:
    """jax#33403: ten identical `W1119 ... spmd_partitioner.cc:4935] You have to use Shardy for
    RaggedDot.` records, equally long, then a cut header: each record stays a line of its own."""
    from jaxerr_ls.tracebacks.fragments import rejoin_wrapped

    entry, _ = _found(matcher, "1240")
    assert entry is not None and matcher.catalog.by_id[entry].message.startswith("You have to use")
    records = paste_text("1240", HOLDOUT).splitlines()[:3]
    assert rejoin_wrapped(records) == records
    # TensorFlow's dated records and a traceback's header likewise (dalle-playground#55).
    lines = paste_text("608", HOLDOUT).splitlines()[2:5]
    assert rejoin_wrapped(lines) == lines


def test_an_exception_line_after_log_records_is_the_error(matcher: Matcher) -> None:
    """jax#30050: JAX's logger (`ERROR:2025-07-08 12:39:34,990 jax._src.xla_bridge:444] Jax plugin
    configuration error: ...`), `...`, then `RuntimeError: Unable to load cuSPARSE. Is it
    installed?` and a WARNING record: the exception is read first, not the text around it."""
    from jaxerr_ls.tracebacks.fragments import only_logged

    entry, _ = _found(matcher, "972")
    assert entry is not None
    assert matcher.catalog.by_id[entry].message.startswith("Unable to load {name}")
    lines = paste_text("972", HOLDOUT).splitlines()
    assert only_logged(lines[:2]) and not only_logged(["The error was:"])
    # pytensor's `ERROR:name:text` records keep their whole text (pymc#7075, tuned 861).
    assert not only_logged(["ERROR:pytensor.graph.rewriting.basic:TRACEBACK:", "x = 1"])


def test_a_cuda_dll_windows_could_not_find(matcher: Matcher) -> None:
    """jax-windows-builder#16 (`$ python`, the banner, `>>> import jax`, then dso_loader's
    `Could not load dynamic library 'cudart64_110.dll'`) and dalle-playground#55: Windows' DLL
    names; Linux's `libcudnn.so.8` stays the shared-object entry's."""
    for name in ("1470", "608"):
        entry, fields = _found(matcher, name)
        assert entry == "cuda-dll-not-found" and fields == {"name": "cudart", "version": "110"}
    line = "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open"
    assert _entry_of(matcher, "", line) != "cuda-dll-not-found"


def test_a_check_ok_record_reads_the_status_on_its_next_line(matcher: Matcher) -> None:
    """jax#33679 (tuned): two equal autotuner warnings, then `F ... gemm_fusion_autotuner.cc:1136]
    Non-OK-status: executable.status()` and `Status: INTERNAL: ptxas exited with non-zero error
    code 139`: the status checked says what failed, not the check's generic words."""
    entry, _ = _found(matcher, "486", held_out=False)
    assert entry == "ptxas-compilation-failed"
