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

import argparse
import hashlib
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from jaxerr_ls.extract.mlir import diagnostics
from jaxerr_ls.extract.xla import SourceSpec, _git, _is_git, describe, read_files, write

FORMAT = 1
KIND = "mlir"


def entry_id(code: str, template: str) -> str:
    """`mlir-<first words>-<digest>`: readable, unique, stable across runs."""
    words = re.findall(r"[a-z0-9]+", re.sub(r"\{[^{}]*\}", " ", template).lower())[:7]
    digest = hashlib.sha1(f"{KIND}\0{code}\0{template}".encode()).hexdigest()[:6]
    return f"{'-'.join(['mlir', *words])[:80].rstrip('-')}-{digest}"


def _describe(spec: SourceSpec, repo: str) -> dict[str, str]:
    """`describe`, with the commit an annotated tag points to (`jax-v0.4.30` is one): the commit
    is what a link to the source pins."""
    data = describe(spec, repo)
    if _is_git(spec.path):
        data["commit"] = _git(spec.path, "rev-parse", f"{spec.ref or 'HEAD'}^{{commit}}").strip()
    return data


def extract(specs: Sequence[SourceSpec], repos: dict[str, str] | None = None) -> dict[str, object]:
    """Every diagnostic of every source, grouped by (kind, template), newest source first."""
    records: dict[tuple[str, str], dict[str, object]] = {}
    counts: dict[str, int] = {}
    for number, spec in enumerate(specs):
        found = 0
        for relative, text in read_files(spec):
            for diagnostic in diagnostics(text):
                found += 1
                key = (diagnostic.kind, diagnostic.template)
                record = records.setdefault(
                    key,
                    {
                        "id": entry_id(*key),
                        "kind": KIND,
                        "code": diagnostic.kind,
                        "message": diagnostic.template,
                        "sites": [],
                    },
                )
                sites = record["sites"]
                assert isinstance(sites, list)
                if not any(s["source"] == number and s["file"] == relative for s in sites):
                    sites.append(
                        {
                            "source": number,
                            "file": relative,
                            "line": diagnostic.line,
                            "function": diagnostic.function,
                        }
                    )
        counts[spec.name] = found
    return {
        "format": FORMAT,
        "sources": [_describe(spec, (repos or {}).get(spec.name, "")) for spec in specs],
        "found": counts,
        "messages": sorted(records.values(), key=lambda r: str(r["id"])),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="jaxerr-ls catalog extract-mlir",
        description="Extract the MLIR diagnostics of Mosaic and Triton's C++ into the catalog.",
    )
    parser.add_argument(
        "--source",
        action="append",
        required=True,
        help="name=PATH[@REF][:SUBDIR], newest first (a git dir or clone, or a folder)",
    )
    parser.add_argument("--repo", action="append", default=[], help="name=OWNER/REPO")
    parser.add_argument("--out", type=Path, default=Path("catalog/xla/mlir.json.gz"))
    args = parser.parse_args(argv)
    try:
        specs = [SourceSpec.parse(text) for text in args.source]
    except ValueError as exc:
        print(f"jaxerr-ls: {exc}", file=sys.stderr)
        return 2
    missing = [spec for spec in specs if not spec.path.exists()]
    if missing:
        print(f"jaxerr-ls: no such source: {missing[0].path}", file=sys.stderr)
        return 2
    try:
        repos = dict(text.split("=", 1) for text in args.repo if "=" in text)
        data = extract(specs, repos)
    except subprocess.CalledProcessError as exc:
        print(f"jaxerr-ls: git failed: {exc.stderr.strip()}", file=sys.stderr)
        return 2
    write(data, args.out)
    found, out = data["found"], data["messages"]
    assert isinstance(found, dict) and isinstance(out, list)
    counts = ", ".join(f"{name}: {count}" for name, count in found.items())
    print(f"{len(out)} distinct diagnostics from {counts} -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
