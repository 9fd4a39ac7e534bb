"""`python -m jaxerr_ls.upgrades.parameters_cli SOURCE... -o FILE`: write the parameter history
(catalog/parameter-history.json.gz) from JAX wheels and source distributions (read, never
imported). scripts/older-releases runs it over every release since 0.1."""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from jaxerr_ls.upgrades.parameters import build_parameter_history, signatures_of


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jaxerr_ls.upgrades.parameters_cli",
        description="The keyword parameters of JAX's public functions in every release given.",
    )
    parser.add_argument("sources", nargs="+", type=Path, help="jax-<version> wheels or sdists")
    parser.add_argument("-o", "--output", type=Path, required=True, help="a .json.gz file")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(list(argv))
    with ProcessPoolExecutor(args.jobs) as pool:
        read = [found for found in pool.map(signatures_of, args.sources) if found is not None]
    if len(read) != len(args.sources):
        print("parameters_cli: some files are not JAX wheels or sdists", file=sys.stderr)
        return 2
    history = build_parameter_history(dict(read))
    text = json.dumps(history, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    # mtime 0: the same sources give the same bytes.
    args.output.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    functions = history["functions"]
    assert isinstance(functions, dict)
    print(f"{args.output}: {len(read)} releases, {len(functions)} functions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
