"""The C++ message extractor: the forms XLA and jaxlib build statuses and Python errors with, read
from a real git repository made here; only messages and places come out."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest

from jaxerr_ls.extract.cpp import messages
from jaxerr_ls.extract.xla import SourceSpec, extract, main

SOURCE = r"""
// return absl::InternalError("commented out: never a message");
absl::Status CheckShapes(const Shape& expected, int index, const Shape& got) {
  if (!Compatible(expected, got)) {
    return InvalidArgument(
        "Executable expected shape %s for argument %d but got incompatible shape %s",
        expected.ToString(), index, got.ToString());
  }
  return absl::OkStatus();
}

absl::Status Allocate(int64_t size) {
  return tsl::errors::ResourceExhausted(
      "Out of memory while trying to allocate ", size, " bytes.");
}

absl::Status Init() {
  return absl::FailedPreconditionError(absl::StrCat(
      "DNN library initialization failed.", " Look at the errors above for more details."));
}

absl::Status Legacy() {
  return absl::Status(absl::StatusCode::kUnimplemented, "default_memory_space is not supported.");
}

void Bind(nb::module_& m) {
  throw nb::value_error(absl::StrFormat("Tuple arity mismatch: %d != %d", a, b).c_str());
}

absl::Status Short() { return absl::InternalError("oops"); }
"""


def test_each_form_becomes_a_template_with_its_line_and_function() -> None:
    found = {(m.code, m.template): m for m in messages(SOURCE)}
    shape = found[
        (
            "INVALID_ARGUMENT",
            "Executable expected shape {expected} for argument {index} but got incompatible "
            "shape {got}",
        )
    ]
    assert shape.kind == "status" and shape.function == "CheckShapes"
    assert SOURCE.splitlines()[shape.line - 1].strip().startswith("return InvalidArgument(")
    assert ("RESOURCE_EXHAUSTED", "Out of memory while trying to allocate {size} bytes.") in found
    assert (
        "FAILED_PRECONDITION",
        "DNN library initialization failed. Look at the errors above for more details.",
    ) in found
    assert ("UNIMPLEMENTED", "default_memory_space is not supported.") in found
    arity = found[("ValueError", "Tuple arity mismatch: {a} != {b}")]
    assert arity.kind == "python" and arity.function == "Bind"


def test_comments_and_messages_too_short_to_identify_anything_are_left_out() -> None:
    texts = [m.template for m in messages(SOURCE)]
    assert not any("commented out" in t for t in texts)
    assert "oops" not in texts


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "xla"
    (repo / "xla" / "service").mkdir(parents=True)
    (repo / "xla" / "service" / "compiler.cc").write_text(SOURCE, encoding="utf-8")
    (repo / "xla" / "service" / "compiler_test.cc").write_text(
        'return absl::InternalError("only a test says this");', encoding="utf-8"
    )
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env |= {"GIT_COMMITTER_EMAIL": "t@t", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    for command in (["init", "-q"], ["add", "."], ["commit", "-qm", "sources"]):
        subprocess.run(["git", *command], cwd=repo, check=True, env=env, timeout=60)
    return repo


def test_a_git_source_gives_messages_sites_and_the_commit(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    data = extract([SourceSpec.parse(f"xla={repo}@HEAD:xla")], {"xla": "openxla/xla"})
    (source,) = data["sources"]  # type: ignore[misc]
    assert source["repo"] == "openxla/xla" and len(source["commit"]) == 40
    records = {r["message"]: r for r in data["messages"]}  # type: ignore[attr-defined]
    assert "No visible GPU devices." not in records
    assert not any("only a test" in m for m in records)
    dnn = records["DNN library initialization failed. Look at the errors above for more details."]
    assert dnn["code"] == "FAILED_PRECONDITION" and dnn["id"].startswith("xla-failed-precondition-")
    assert dnn["sites"] == [
        {"source": 0, "file": "xla/service/compiler.cc", "line": 18, "function": "Init"}
    ]


def test_the_command_writes_the_same_bytes_twice_and_refuses_bad_sources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path)
    out = tmp_path / "messages.json.gz"
    assert main(["--source", f"xla={repo}:xla", "--out", str(out)]) == 0
    first = out.read_bytes()
    assert main(["--source", f"xla={repo}:xla", "--out", str(out)]) == 0
    assert out.read_bytes() == first
    assert len(json.loads(gzip.decompress(first))["messages"]) == 5
    assert main(["--source", "no-path-here"]) == 2
    assert main(["--source", f"xla={tmp_path / 'missing'}"]) == 2
    assert "no such source" in capsys.readouterr().err


LOGS = r"""
#define SET_FN(Struct, FnName)                               \
  if (!(Struct->FnName##Fn)) {                               \
    LOG(FATAL) << #FnName " not available in this library."; \
  }

static void WarnIfBadPtxasVersion(const std::string& ptxas_path) {
  LOG(WARNING)
      << "*** WARNING *** You are using ptxas " << vmaj << "." << vmin << "."
      << vdot << ", which is older than 11.1. ptxas before 11.1 is known to "
         "miscompile XLA code.";
  VLOG(2) << "Looking for ptxas at " << ptxas_path;
  DCHECK(ok) << "a check only debug builds make, never seen";
  LOG(INFO) << "XLA service initialized for platform " << platform;
  LOG(INFO) << "Falling back to the CUDA driver for PTX compilation at " << ptxas_path;
  LOG_FIRST_N(ERROR, 1) << absl::StrCat("Could not create cudnn handle: ", ToString(status));
  CHECK(dnn != nullptr) << "No DNN support for stream executor " << ordinal;
  LOG(ERROR) << status;
}
"""


def test_log_messages_with_literal_text_become_templates_with_their_severity() -> None:
    from jaxerr_ls.extract.xla import file_messages

    found = [(m.kind, m.code, m.template) for m in file_messages(LOGS)]
    assert found == [
        ("log", "FATAL", "{FnName} not available in this library."),
        (
            "log",
            "WARNING",
            "*** WARNING *** You are using ptxas {vmaj}.{vmin}.{vdot}, which is older than 11.1. "
            "ptxas before 11.1 is known to miscompile XLA code.",
        ),
        # INFO only when it reports a failure or fallback; VLOG and DCHECK never reach users.
        ("log", "INFO", "Falling back to the CUDA driver for PTX compilation at {ptxas_path}"),
        ("log", "ERROR", "Could not create cudnn handle: {arg0}"),
        # glog prints `Check failed: <condition> ` before a CHECK's message, then aborts.
        ("log", "FATAL", "Check failed: {condition} No DNN support for stream executor {ordinal}"),
    ]


def test_a_folder_of_single_files_records_the_commit_each_was_read_at(tmp_path: Path) -> None:
    folder = tmp_path / "tf"
    source = folder / "tensorflow/stream_executor/gpu/asm_compiler.cc"
    source.parent.mkdir(parents=True)
    source.write_text(LOGS)
    (folder / "COMMITS").write_text(
        "# path commit\ntensorflow/stream_executor/gpu/asm_compiler.cc " + "a" * 40 + "\n"
    )
    data = extract([SourceSpec.parse(f"tf={folder}")], {"tf": "tensorflow/tensorflow"})
    records = {r["message"]: r for r in data["messages"]}  # type: ignore[attr-defined]
    fatal = records["{FnName} not available in this library."]
    assert fatal["kind"] == "log" and fatal["id"].startswith("xla-log-fatal-not-available-")
    assert fatal["sites"] == [
        {
            "source": 0,
            "file": "tensorflow/stream_executor/gpu/asm_compiler.cc",
            "line": 4,
            "function": "<file scope>",
            "commit": "a" * 40,
        }
    ]
