"""Pallas's compilers' own words: the MLIR diagnostics Mosaic (TPU, GPU) and jaxlib's Triton glue
emit in C++ (the generated `catalog/xla/mlir.json.gz`, see `jaxerr_ls.extract.mlir`), as catalog
entries below JAX's Python.

MLIR prints a diagnostic as `'tpu.matmul' op <message>` (an op's verifier or a pass's
`emitOpError`) or `loc(...): error: <message>`, and it reaches Python inside a wrapper: jaxlib's
runtime error (`INTERNAL: Mosaic failed to compile TPU kernel: <message>`), Pallas's re-raise of it
(`MosaicError`), an `MLIRError` of a verification (`VerificationError`, `LoweringException`), or
Triton's. The diagnostic says what failed; the wrapper only where, so a diagnostic's text ranks
above the wrapper's curated pattern (`mosaic-tpu-compile-failed`).
"""

from __future__ import annotations

import re
from pathlib import Path

from jaxerr_ls.catalog.model import Entry
from jaxerr_ls.catalog.xla import generated_sites, read_generated

INDEX = "mlir.json.gz"
PREFIX = "mlir-"
EXCEPTION = "XlaRuntimeError"
# Classes a Mosaic or Triton diagnostic reaches Python in besides the runtime error's own:
# Pallas's re-raise of it, MLIR's verification error and the lowering exceptions around it.
CARRIERS = frozenset(
    {
        "MosaicError",
        "VerificationError",
        "MLIRError",
        "LoweringException",
        "LoweringError",
        "TritonLoweringException",
        "CompilationError",
    }
)

# Mosaic's wrapper around a diagnostic, with or without the status of the runtime error.
WRAPPER = re.compile(r"(?:(?:INTERNAL|INVALID_ARGUMENT): )?Mosaic failed to compile TPU kernel: ")
_CHECKS = (
    "Find the operation after `The MLIR operation involved:` (or the `loc(...)` of the error): "
    "the location names the line of your kernel that produced it.",
    "Run the kernel with `interpret=True` to check its logic apart from the compiler.",
)
_TPU = (
    "Mosaic, the compiler Pallas uses for TPU kernels, rejected an operation of the kernel while "
    "verifying or lowering it: a shape, layout, dtype or operation its TPU lowering does not "
    "support (or, for an `Internal error`, a case it does not handle).",
    (
        *_CHECKS,
        "Keep the last two dimensions of blocks and in-kernel arrays multiples of (8, 128) (or "
        "the whole array), and do reshapes and transposes of them outside the kernel.",
        "Use dtypes the TPU generation supports in vectors (float32 or bfloat16, int32); cast "
        "booleans and narrow integers before arithmetic.",
        "Upgrade jax, jaxlib and libtpu together: Mosaic supports more with each release.",
    ),
)
_GPU = (
    "Mosaic GPU, the compiler Pallas uses for GPU kernels with `backend='mosaic_gpu'`, rejected "
    "an operation of the kernel while verifying or lowering it.",
    (
        *_CHECKS,
        "Check the shapes, layouts, memory spaces (SMEM, TMEM) and dtypes the message names "
        "against what the operation accepts on your GPU generation.",
        "Upgrade jax and jaxlib together: Mosaic GPU supports more with each release.",
    ),
)
_TRITON = (
    "The Triton compiler jaxlib drives for Pallas GPU kernels rejected the kernel's module.",
    (*_CHECKS, "Upgrade jax and jaxlib together (jaxlib bundles its Triton)."),
)


def advice(file: str) -> tuple[str, tuple[str, ...]]:
    """What a diagnostic from this C++ file means and what to check."""
    if "/gpu/" in file and "mosaic" in file:
        return _GPU
    if "triton" in file:
        return _TRITON
    return _TPU


def carried_class(cls: str, message: str) -> str:
    """The runtime class a class carrying a Mosaic/Triton diagnostic stands for ("" for others):
    `MosaicError: INTERNAL: Mosaic failed ...` is jaxlib's runtime error re-raised by Pallas, and
    so is any class whose message starts with Mosaic's wrapper (vLLM re-raises it as
    `ValueError: Mosaic failed to compile TPU kernel: ...`, jax#29520)."""
    return EXCEPTION if cls in CARRIERS or WRAPPER.match(message.lstrip()) else ""


# Where Pallas's compilers' C++ lives in jax-ml/jax.
SOURCES = ("jaxlib/mosaic/", "jaxlib/triton/")


def is_diagnostic(entry: Entry) -> bool:
    """An entry of an MLIR diagnostic of Pallas's compilers: generated from one, or curated with
    one of their C++ sites (the generated entry folded into it)."""
    if not entry.curated:
        return entry.id.startswith(PREFIX)
    return any(site.file.startswith(SOURCES) for site in entry.raised_at)


def load_mlir(path: Path, library: str) -> tuple[list[Entry], list[str]]:
    """The generated entries of `catalog/xla/mlir.json.gz`, and problems met reading it."""
    label = f"catalog/xla/{path.name}"
    records, sources, problem = read_generated(path)
    if problem:
        return [], [problem]
    entries: list[Entry] = []
    problems: list[str] = []
    for number, raw in enumerate(records):
        text = raw.get("message") if isinstance(raw, dict) else None
        entry_id = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(text, str) or not isinstance(entry_id, str) or not text or not entry_id:
            problems.append(f"{label}: diagnostic #{number}: needs id and message")
            continue
        assert isinstance(raw, dict)
        sites = generated_sites(raw, sources)
        meaning, solutions = advice(sites[0].file if sites else "")
        entries.append(
            Entry(
                id=entry_id,
                exception=EXCEPTION,
                message=text,
                title=text.split("\n", 1)[0][:80],
                curated=False,
                raised_at=sites,
                library=library,
                meaning=meaning,
                solutions=solutions,
                related=("mosaic-tpu-compile-failed",) if meaning is _TPU[0] else (),
            )
        )
    return entries, problems
