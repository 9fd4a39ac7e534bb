"""Save the tracebacks that curated examples print under one JAX release, as test data.

    python scripts/capture_examples.py PYTHON [--filtering off] [ID ...]

PYTHON is the interpreter of that release (`bash scripts/jax-venv 0.4.38` prints one). Writes
tests/catalog/releases/<jax version>/<id>.<filtering or "plain">.txt for every example whose
`before` raised; prints what each raised. The tests read these files to prove that an older
release's wording (or its raise site) reaches the entry.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jaxerr_ls.catalog import load_catalog  # noqa: E402
from tests.proof.prove import prove_batch  # noqa: E402

OUT = ROOT / "tests" / "catalog" / "releases"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("python")
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--filtering", default="")
    args = parser.parse_args(argv)
    version = subprocess.run(
        [args.python, "-c", "import jax; print(jax.__version__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    chosen = [e for e in load_catalog().curated if e.example and (not args.ids or e.id in args.ids)]
    folder = OUT / version
    folder.mkdir(parents=True, exist_ok=True)
    for proof in prove_batch(chosen, args.python, filtering=args.filtering):
        before = proof.before
        print(f"{proof.entry.id}: {before.exception}: {(before.message or '')[:100]!r}")
        if before.output:
            name = f"{proof.entry.id}.{args.filtering or 'plain'}.txt"
            (folder / name).write_text(before.output, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
