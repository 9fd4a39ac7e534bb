"""The MLIR diagnostic extractor: the forms Mosaic's and Triton's C++ emit diagnostics with, read
as text; only messages and places come out."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

from jaxerr_ls.extract.mlir import diagnostics
from jaxerr_ls.extract.mlir_cli import main

SOURCE = r"""
#define TPU_CHECK_OP(cond, msg) \
  if (!(cond)) {                \
    op->emitOpError(msg);       \
    return failure();           \
  }
#define NYI(msg)                            \
  op->emitOpError("not implemented: " msg); \
  return failure();

LogicalResult MemRefSliceOp::verify() {
  // return emitOpError("commented out: never a message");
  if (indices.size() != shape.size()) {
    return emitOpError("Indices and slice shapes must match.");
  }
  return emitOpError("Layout mismatch: got ") << target_layout << ", expected "
                                               << expected_layout << ".";
}

LogicalResult BroadcastedIotaOp::verify() {
  return emitError(llvm::formatv("dimension={0} must be smaller than the rank={1} of the result.",
                                 getDimension(), type.getRank()));
}

LogicalResult getTiling(Value value) {
  return emitError(value.getLoc(), "Expected a tiled memref for this value");
}

class VectorLayoutInferer {
 public:
  LogicalResult inferReshape(vector::ShapeCastOp op) {
    TPU_CHECK_OP(layout.has_value(), "unsupported shape cast");
    NYI("Strided load with non 32-bit data");
    mlir::emitError(op.getLoc()) << "Unsupported vector layout in " << op->getName();
    return op.emitOpError("Not implemented");
  }
};
"""


def test_each_form_becomes_a_template_with_its_line_and_function() -> None:
    found = {d.template: d for d in diagnostics(SOURCE)}
    assert set(found) == {
        "Indices and slice shapes must match.",
        "Layout mismatch: got {target_layout}, expected {expected_layout}.",
        "dimension={dimension} must be smaller than the rank={rank} of the result.",
        "Expected a tiled memref for this value",
        "unsupported shape cast",
        "not implemented: Strided load with non 32-bit data",
        "Unsupported vector layout in {op_name}",
    }
    indices = found["Indices and slice shapes must match."]
    assert indices.kind == "emitOpError" and indices.function == "MemRefSliceOp::verify"
    assert "emitOpError(" in SOURCE.splitlines()[indices.line - 1]
    assert found["Expected a tiled memref for this value"].kind == "emitError"
    assert found["unsupported shape cast"].function == "inferReshape"
    # A bare "Not implemented" says nothing of what failed: not kept.
    assert "Not implemented" not in found


def test_extract_mlir_writes_sites_and_commits(tmp_path: Path) -> None:
    repo = tmp_path / "jax"
    (repo / "jaxlib" / "mosaic").mkdir(parents=True)
    (repo / "jaxlib" / "mosaic" / "tpu_ops.cc").write_text(SOURCE, encoding="utf-8")
    (repo / "jaxlib" / "mosaic" / "tpu_ops_test.cc").write_text(SOURCE, encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "source"], check=True)
    out = tmp_path / "mlir.json.gz"
    spec = f"jaxlib={repo}@HEAD:jaxlib"
    assert main(["--source", spec, "--repo", "jaxlib=jax-ml/jax", "--out", str(out)]) == 0
    data = json.loads(gzip.decompress(out.read_bytes()))
    assert data["sources"][0]["repo"] == "jax-ml/jax" and len(data["sources"][0]["commit"]) == 40
    by_text = {m["message"]: m for m in data["messages"]}
    record = by_text["Indices and slice shapes must match."]
    assert record["id"].startswith("mlir-indices-and-slice-shapes")
    assert record["code"] == "emitOpError"
    (site,) = record["sites"]  # the test file is skipped
    assert site["file"] == "jaxlib/mosaic/tpu_ops.cc"
    assert out.read_bytes() == (main_again(spec, tmp_path))


def main_again(spec: str, tmp_path: Path) -> bytes:
    again = tmp_path / "again.json.gz"
    main(["--source", spec, "--repo", "jaxlib=jax-ml/jax", "--out", str(again)])
    return again.read_bytes()
