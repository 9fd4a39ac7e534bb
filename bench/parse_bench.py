"""Traceback parsing and matching speed.

    .venv/bin/python bench/parse_bench.py [--runs N]

Latency (median of N runs) of parse + match for a typical JAX traceback and a 1,000-frame one, and
throughput of parsing (and parse + match) over the captured corpus of every release (0.10.2, 0.4.26,
0.4.38 and 0.6.2, every printed form and the short pastes made from them), matched as `explain` does
(message in any release's wording, any class when none was copied, raise sites). Prints a table
and writes bench/results/parse.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import match_traceback
from jaxerr_ls.tracebacks import parse_paste, parse_tracebacks

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "out"
RELEASE_CORPORA = sorted(CORPUS.parent.glob("out-*"))
RESULTS = ROOT / "bench" / "results" / "parse.json"


def deep_traceback(frames: int = 1000) -> str:
    lines = ["Traceback (most recent call last):"]
    for n in range(frames):
        lines.append(f'  File "/home/u/proj/model/layer_{n % 7}.py", line {n + 1}, in block_{n}')
        lines.append(f"    x = block_{n + 1}(x, params[{n}])")
        lines.append("        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
    lines.append(
        "jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array "
        "with shape bool[]."
    )
    lines.append(
        "See https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError"
    )
    return "\n".join(lines) + "\n"


def median_ms(work: Callable[[], object], runs: int) -> float:
    work()  # warm caches (compiled regexes, lazily compiled templates)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def parse_and_match(text: str, matcher: Matcher) -> int:
    count = 0
    for tb in parse_paste(text):
        match_traceback(tb, matcher)
        count += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    start = time.perf_counter()
    matcher = Matcher(load_catalog())
    load_s = time.perf_counter() - start

    typical = (CORPUS / "tracer_bool.plain.txt").read_text(encoding="utf-8")
    deep = deep_traceback()
    paths = [p for folder in (CORPUS, *RELEASE_CORPORA) for p in sorted(folder.glob("*.txt"))]
    texts = [p.read_text(encoding="utf-8") for p in paths]
    size_mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6

    def parse_corpus() -> int:
        return sum(len(parse_paste(t)) for t in texts)

    def explain_corpus() -> int:
        return sum(parse_and_match(t, matcher) for t in texts)

    tracebacks = parse_corpus()
    corpus_runs = max(3, args.runs // 10)
    parse_ms = median_ms(parse_corpus, corpus_runs)
    explain_ms = median_ms(explain_corpus, corpus_runs)
    results = {
        "machine": {"python": platform.python_version(), "processor": platform.machine()},
        "runs": args.runs,
        "catalog_load_and_build_s": round(load_s, 3),
        "typical_parse_match_ms": round(
            median_ms(lambda: parse_and_match(typical, matcher), args.runs), 3
        ),
        "typical_parse_ms": round(median_ms(lambda: parse_tracebacks(typical), args.runs), 3),
        "deep_1000_frames_parse_match_ms": round(
            median_ms(lambda: parse_and_match(deep, matcher), args.runs), 3
        ),
        "corpus": {
            "files": len(texts),
            "tracebacks": tracebacks,
            "megabytes": round(size_mb, 3),
            "parse_tracebacks_per_s": round(tracebacks / (parse_ms / 1000), 1),
            "parse_mb_per_s": round(size_mb / (parse_ms / 1000), 2),
            "parse_match_tracebacks_per_s": round(tracebacks / (explain_ms / 1000), 1),
            "parse_match_mb_per_s": round(size_mb / (explain_ms / 1000), 2),
        },
    }
    corpus = results["corpus"]
    assert isinstance(corpus, dict)
    rows = [
        ("catalog load + matcher build", f"{results['catalog_load_and_build_s']} s"),
        ("typical traceback: parse", f"{results['typical_parse_ms']} ms"),
        ("typical traceback: parse + match", f"{results['typical_parse_match_ms']} ms"),
        (
            "1,000-frame traceback: parse + match",
            f"{results['deep_1000_frames_parse_match_ms']} ms",
        ),
        (
            f"corpus ({corpus['files']} files, {corpus['tracebacks']} tracebacks, "
            f"{corpus['megabytes']} MB): parse",
            f"{corpus['parse_tracebacks_per_s']} tb/s, {corpus['parse_mb_per_s']} MB/s",
        ),
        (
            "corpus: parse + match",
            f"{corpus['parse_match_tracebacks_per_s']} tb/s, {corpus['parse_match_mb_per_s']} MB/s",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
