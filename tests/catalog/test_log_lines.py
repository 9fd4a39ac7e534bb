"""C++ log lines users paste (glog / TensorFlow logging): what `jaxerr-ls explain` shows for them.

The pastes are real (tests/field/pastes, each thread named); the two `failed to allocate` lines are
written here to show the header's file choosing between two files that log the same text.
"""

from __future__ import annotations

import json
import subprocess
import sys

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from tests.field.measure_pastes import paste_text


def _explain_json(text: str) -> list[dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", "explain", "--json", "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    tracebacks: list[dict[str, object]] = json.loads(done.stdout)["tracebacks"]
    return tracebacks


def test_a_fatal_tpu_log_line_reaches_its_entry_on_the_command_line() -> None:
    """jax#7247: jaxlib's TPU loader logged FATAL and the process ended; no exception followed."""
    [found] = _explain_json(paste_text("588"))
    assert found["exception"] == ""
    entry = found["entry"]
    assert isinstance(entry, dict)
    assert entry["id"] == "tpu-library-function-missing" and entry["library"] == "xla"
    assert found["fields"] == {"function": "TpuTransferManager_ReadDynamicShapes"}
    done = subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", "explain", "-"],
        input=paste_text("588"),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stdout.startswith("C++ log line (no exception in the text): F external/")
    assert "the process aborts right after it" in " ".join(done.stdout.split())


def test_a_generated_log_entry_says_its_severity(matcher: Matcher) -> None:
    """openxla/xla#47391, pasted from mid-line: the text XLA's PJRT client logs as an ERROR."""
    [explained] = explain_text(paste_text("241"), matcher)
    assert explained.match is not None
    entry = explained.match.entry
    assert entry.exception == "LogMessage" and not entry.curated
    assert entry.title.startswith("ERROR log: ExecutePrepareWithOomRetries failed: ")
    assert explained.match.fields["prepare_status"].startswith("INVALID_ARGUMENT: Buffer")
    fatal = matcher.match("", "F external/xla/xla/foo.cc:1] TpuX_Y not available in this library.")
    assert fatal is not None and "aborts" in fatal.entry.meaning


def test_the_file_in_the_header_picks_among_entries_of_the_same_text(matcher: Matcher) -> None:
    """`failed to allocate ... from device` is logged by cuda_driver.cc (INFO) and rocm_driver.cc
    (ERROR): the line's own file says which."""
    text = "failed to allocate 1.00G (1073741824 bytes) from device: {}"
    cuda = "I external/xla/xla/stream_executor/cuda/cuda_driver.cc:1558] " + text.format("x")
    rocm = "2024-01-01 10:00:00.000000: E external/xla/xla/stream_executor/rocm/rocm_driver.cc:9] "
    found = [matcher.match("", line) for line in (cuda, rocm + text.format("hipError"))]
    assert [m.entry.title.split(" ", 1)[0] if m else None for m in found] == ["INFO", "ERROR"]


def test_the_exception_in_the_paste_is_explained_not_the_log_line_above_it() -> None:
    """jax#28376: an ERROR log line about cuInit, then the traceback of the exception raised."""
    found = _explain_json(paste_text("415"))
    assert [t["exception"] for t in found][-1] == "jaxlib.xla_extension.XlaRuntimeError"
    entry = found[-1]["entry"]
    assert isinstance(entry, dict) and entry["id"] == "no-visible-gpu-devices"


def test_a_status_never_reads_as_the_log_message_it_wraps(matcher: Matcher) -> None:
    """jax#11828: a status whose inner text ends like a FATAL log message (`{x} symbol not
    found.`) stays the status it is."""
    found = matcher.match(
        "XlaRuntimeError",
        "INTERNAL: CustomCall failed: jaxlib/cuda/cuda_prng_kernels.cc:32: operation "
        "cudaGetLastError() failed: cudaGetErrorString symbol not found.",
    )
    assert found is not None and found.entry.exception == "XlaRuntimeError"


def test_the_2021_tpu_lock_wording_reaches_the_tpu_entry(matcher: Matcher) -> None:
    """jaxlib of 2021 logged `libtpu.so already in used by another process` (TensorFlow's
    tpu_initializer_helper.cc at c3bd2f4bcdcf, an INFO line); later releases say `in use`."""
    line = (
        "2021-07-08 19:19:44.915453: I external/org_tensorflow/tensorflow/core/tpu/"
        "tpu_initializer_helper.cc:68] libtpu.so already in used by another process. Not "
        "attempting to load libtpu.so in this process."
    )
    found = matcher.match("", line)
    assert found is not None and found.entry.id == "tpu-already-in-use"


def test_a_2021_cufft_log_line_reaches_its_generated_entry(matcher: Matcher) -> None:
    """cuda_fft.cc of 2021 (TensorFlow's tree, c3bd2f4bcdcf) wrote `plan:` and the cuFFT code
    with no space between them; 2022's wording differs, so only the TensorFlow source has it."""
    line = "E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_fft.cc:261] "
    found = matcher.match("", line + "failed to make cuFFT batched plan:5")
    assert found is not None and found.entry.title.startswith("ERROR log: failed to make cuFFT")
    assert any(site.jax.startswith("tensorflow/tensorflow@") for site in found.entry.raised_at)


def test_an_error_line_outranks_a_warning_before_it(matcher: Matcher) -> None:
    """jax-triton#336 pasted XLA's warning that the driver is older than ptxas, then the error
    line of the ptxas run that failed: the error line's entry is the explanation. Where the error
    line only has a generated entry, the warning's curated one still explains the log (jax#16546:
    `W ... ptxas too old`, then `E ... Failed to get PTX kernel`)."""
    [explained] = explain_text(paste_text("700"), matcher)
    assert explained.match is not None
    assert explained.match.entry.id == "ptxas-compilation-failed"
    [explained] = explain_text(paste_text("408"), matcher)
    assert explained.match is not None and explained.match.entry.id == "ptxas-too-old"
