"""The shape oracle's cost: starting the worker (the user's interpreter importing JAX), a batch of
queries answered by JAX, the same batch from the cache; and what the shape rules add to checking
a file: the field programs, the libraries' files, and an edit of lsp_bench's 2,000-line file
(with a block of stated shapes in each function, so the rules have something to evaluate).

Usage: .venv/bin/python bench/shapes_bench.py [--runs N]   Writes bench/results/shapes.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from lsp_bench import generate  # noqa: E402

from jaxerr_ls.analysis import analyze  # noqa: E402
from jaxerr_ls.analysis.shapes import events  # noqa: E402
from jaxerr_ls.analysis.shapes.evaluate import Evaluator  # noqa: E402
from jaxerr_ls.analysis.shapes.oracle import ProcessOracle  # noqa: E402
from jaxerr_ls.rules import rules_for  # noqa: E402
from jaxerr_ls.rules.incremental import IncrementalChecker  # noqa: E402
from tests.library_code import LIBRARIES, library_files  # noqa: E402

SHAPED = """
def shaped_{n}():
    x = jnp.ones(({n} % 7 + 2, 3))
    w = jnp.ones((3, 4))
    h = jnp.tanh(x @ w)
    return jax.vmap(lambda r: r.sum())(h).reshape(-1, 1)
"""
EDIT = """
def typed_{n}():
    a = jnp.zeros((5, 3))
    return a @ jnp.ones((4, 2))
"""


def oracle_costs(runs: int) -> dict[str, Any]:
    start = time.perf_counter()
    oracle = ProcessOracle()
    oracle.answer([{"kind": "call", "name": "jax.numpy.zeros", "args": [{"py": 1}]}])
    started = time.perf_counter() - start
    batch = [
        {
            "kind": "binop",
            "name": "matmul",
            "args": [{"a": [[k, 3], "float32", False]}, {"a": [[3, 4], "float32", False]}],
        }
        for k in range(1, 51)
    ]
    fresh, cached = [], []
    for run in range(runs):
        queries = [{**q, "name": "matmul" if run % 2 == 0 else "add"} for q in batch]
        queries = [
            {**q, "args": [{"a": [[k + 100 * run, 3], "float32", False]}, q["args"][1]]}
            for k, q in enumerate(queries)
        ]
        t = time.perf_counter()
        oracle.answer(queries)
        fresh.append(time.perf_counter() - t)
        t = time.perf_counter()
        oracle.answer(queries)
        cached.append(time.perf_counter() - t)
    oracle.close()
    return {
        "worker_start_s": round(started, 3),
        "batch_of_50_fresh_median_s": round(statistics.median(fresh), 4),
        "per_query_fresh_ms": round(statistics.median(fresh) / 50 * 1000, 2),
        "batch_of_50_cached_median_s": round(statistics.median(cached), 5),
    }


def library_costs() -> dict[str, Any]:
    oracle = ProcessOracle()
    oracle.answer([{"kind": "call", "name": "jax.numpy.zeros", "args": [{"py": 1}]}])
    out: dict[str, Any] = {}
    for name in sorted(LIBRARIES):
        models = [analyze(p.read_text(errors="replace")) for p in library_files(name)]
        lines = sum(m.source.count("\n") for m in models if m)
        t = time.perf_counter()
        found = sum(len(events(m, oracle)) for m in models if m)
        first = time.perf_counter() - t
        t = time.perf_counter()
        for m in models:
            if m:
                events(m, oracle)
        again = time.perf_counter() - t
        out[name] = {
            "lines": lines,
            "events": found,
            "first_s": round(first, 2),
            "cached_s": round(again, 2),
            "lines_per_s_cached": int(lines / again),
        }
    out["queries_asked"] = oracle.asked
    oracle.close()
    return out


def edit_costs(runs: int) -> dict[str, Any]:
    text = generate(2000)
    lines = text.splitlines(keepends=True)
    # a block of stated shapes after every 50th line that ends a function (40 in all)
    blanks = [k for k, line in enumerate(lines) if line == "\n"]
    chosen = set(blanks[:: max(1, len(blanks) // 40)])
    shaped = "".join(
        line + (SHAPED.format(n=k) if k in chosen else "") for k, line in enumerate(lines)
    )
    out: dict[str, Any] = {"lines": shaped.count("\n")}
    for label, keep in (("with shapes", True), ("without shapes", False)):
        rules = tuple(r for r in rules_for(None) if keep or r.id != "shapes")
        checker = IncrementalChecker(rules)
        t = time.perf_counter()
        checker.check(shaped)
        first = time.perf_counter() - t
        base = shaped.splitlines(keepends=True)
        middle = len(base) // 2
        while base[middle] != "\n":
            middle += 1
        times = []
        for k in range(runs):
            new = (
                "".join([*base[:middle], EDIT.format(n=k), *base[middle:]])
                if k % 2 == 0
                else shaped
            )
            t = time.perf_counter()
            checker.check(new)
            times.append(time.perf_counter() - t)
        out[label] = {
            "first_check_s": round(first, 3),
            "edit_median_s": round(statistics.median(times), 4),
            "edit_max_s": round(max(times), 4),
        }
    evaluator = Evaluator(analyze(shaped), ProcessOracle())  # type: ignore[arg-type]
    evaluator.run()
    out["queries_for_the_file"] = evaluator.asked
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    result = {
        "machine": {"python": platform.python_version(), "processor": platform.machine()},
        "oracle": oracle_costs(args.runs),
        "libraries": library_costs(),
        "edit_2000_lines": edit_costs(args.runs),
    }
    (HERE / "results" / "shapes.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
