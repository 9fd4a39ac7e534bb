"""`jaxerr-ls catalog extract-mlir`: the MLIR diagnostics of Mosaic (TPU and GPU) and jaxlib's
Triton glue, as catalog data (`catalog/xla/mlir.json.gz`).

Reads C++ sources as `extract-xla` does (git repositories, bare snapshots, folders; never built)
and records, per distinct (diagnostic kind, template), every place that emits it: source, file,
line, function. Only facts: the message text and where it is.

    jaxerr-ls catalog extract-mlir \\
        --source jaxlib=/path/to/jax.git@jax-v0.10.2:jaxlib --repo jaxlib=jax-ml/jax \\
        --out catalog/xla/mlir.json.gz
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from jaxerr_ls.extract.mlir import diagnostics
from jaxerr_ls.extract.xla import Found, SourceSpec, collect, run

FORMAT = 1
KIND = "mlir"


def entry_id(code: str, template: str) -> str:
    """`mlir-<first words>-<digest>`: readable, unique, stable across runs."""
    words = re.findall(r"[a-z0-9]+", re.sub(r"\{[^{}]*\}", " ", template).lower())[:7]
    digest = hashlib.sha1(f"{KIND}\0{code}\0{template}".encode()).hexdigest()[:6]
    return f"{'-'.join(['mlir', *words])[:80].rstrip('-')}-{digest}"


def _found(text: str) -> Iterator[Found]:
    for diagnostic in diagnostics(text):
        yield Found(
            KIND, diagnostic.kind, diagnostic.template, diagnostic.line, diagnostic.function
        )


def extract(specs: Sequence[SourceSpec], repos: dict[str, str] | None = None) -> dict[str, object]:
    """Every diagnostic of every source, grouped by (kind, template), newest source first."""
    return collect(specs, repos, _found, lambda _kind, code, template: entry_id(code, template))


def main(argv: Sequence[str] | None = None) -> int:
    return run(
        argv,
        prog="jaxerr-ls catalog extract-mlir",
        description="Extract the MLIR diagnostics of Mosaic and Triton's C++ into the catalog.",
        out=Path("catalog/xla/mlir.json.gz"),
        extract_with=extract,
        noun="diagnostics",
    )


if __name__ == "__main__":
    sys.exit(main())
