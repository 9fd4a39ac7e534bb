"""Locating a traceback in notebook cells: cost of searching a workspace's .ipynb files.

    .venv/bin/python bench/notebook_bench.py [--runs N] [--notebooks 10,100,500]

For each size, a temporary root holds that many copies of the executed test notebooks; the
printed traceback of tests/notebooks/data/printed_traceback.ipynb (ipykernel files, no execution
count: found by the cell's text) is located from a fresh Workspace (reading every notebook) and
from a warm one. Medians of N runs; writes bench/results/notebooks.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from jaxerr_ls.tracebacks import parse_tracebacks
from jaxerr_ls.tracebacks.locate import Workspace, locate

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "notebooks" / "data"
RESULTS = ROOT / "bench" / "results" / "notebooks.json"


def printed_traceback() -> str:
    cells = json.loads((DATA / "printed_traceback.ipynb").read_text())["cells"]
    return "".join("".join(o["text"]) for o in cells[2]["outputs"] if o["output_type"] == "stream")


def median_ms(job: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--notebooks", default="10,100,500")
    args = parser.parse_args()
    (traceback,) = parse_tracebacks(printed_traceback())
    others = [p for p in sorted(DATA.glob("*.ipynb")) if p.name != "printed_traceback.ipynb"]
    rows = []
    for count in (int(n) for n in args.notebooks.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for n in range(count - 1):  # the one that holds the cell sorts last
                shutil.copy(others[n % len(others)], root / f"a{n:04d}.ipynb")
            shutil.copy(DATA / "printed_traceback.ipynb", root / "z.ipynb")

            def cold(root: Path = root) -> None:
                found = locate(traceback, Workspace(root))
                assert found is not None and found.cell == 1

            warm_workspace = Workspace(root)
            cold()
            rows.append(
                {
                    "notebooks": count,
                    "cold_ms": round(median_ms(cold, args.runs), 2),
                    "warm_ms": round(
                        median_ms(lambda w=warm_workspace: locate(traceback, w), args.runs), 3
                    ),
                }
            )
    for row in rows:
        cold_ms, warm_ms = row["cold_ms"], row["warm_ms"]
        print(f"{row['notebooks']:5d} notebooks: cold {cold_ms:8.2f} ms, warm {warm_ms:7.3f} ms")
    RESULTS.write_text(
        json.dumps({"machine": platform.platform(), "runs": args.runs, "rows": rows}, indent=2)
        + "\n"
    )


if __name__ == "__main__":
    main()
