"""Catalog site: how long `jaxerr-ls catalog site` takes, how big the site is, and how fast the
in-browser search answers (the site's matcher under Node, over the real corpus).

    .venv/bin/python bench/site_bench.py [--runs N]

Prints a table and writes bench/results/site.json. Build times are medians of N builds into a
fresh temporary folder: rendering (pure) and writing (files) separately.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.site import build

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "out"
RESULTS = ROOT / "bench" / "results" / "site.json"
# Times every corpus text through lastException + match, after one warm-up pass.
NODE_TIMER = """
global.window = global;
require(process.argv[2]);
const site = require(process.argv[3]);
const started = process.hrtime.bigint();
const matcher = new site.Matcher(global.JAXERR_SEARCH);
const ready = Number(process.hrtime.bigint() - started) / 1e6;
const texts = JSON.parse(require("fs").readFileSync(0, "utf8"));
const once = (t) => {
  const f = site.lastException(t);
  return matcher.match(f.exception, f.message);
};
texts.forEach(once);
const times = texts.map((t) => {
  const s = process.hrtime.bigint(); once(t); return Number(process.hrtime.bigint() - s) / 1e6;
}).sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ready, p50: times[times.length >> 1],
  p95: times[Math.floor(times.length * 0.95)], max: times[times.length - 1]}));
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    catalog = load_catalog()
    render_s: list[float] = []
    write_s: list[float] = []
    built: build.Built | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            out = Path(tmp) / f"site{run}"
            start = time.perf_counter()
            files = build.render_files(catalog, Matcher(catalog))
            rendered = time.perf_counter()
            size = build.write_files(out, files)
            render_s.append(rendered - start)
            write_s.append(time.perf_counter() - rendered)
            built = build.Built(len(files), size, len(catalog.entries), len(catalog.by_api))
        assert built is not None
        site = Path(tmp) / "site0"
        data = (site / "search-data.js").stat().st_size
        disk = sum(p.stat().st_blocks * 512 for p in site.rglob("*") if p.is_file())
        search = None
        if shutil.which("node"):
            texts = [
                p.read_text(encoding="utf-8", errors="replace")
                for p in sorted(CORPUS.glob("*.txt"))
            ]
            timer = Path(tmp) / "timer.js"
            timer.write_text(NODE_TIMER, encoding="utf-8")
            done = subprocess.run(
                ["node", str(timer), str(site / "search-data.js"), str(site / "match.js")],
                input=json.dumps(texts),
                capture_output=True,
                text=True,
                check=True,
                timeout=600,
            )
            search = json.loads(done.stdout) | {"texts": len(texts)}
    result = {
        "machine": platform.platform(),
        "runs": args.runs,
        "render_s_median": statistics.median(render_s),
        "write_s_median": statistics.median(write_s),
        "files": built.files,
        "bytes": built.bytes,
        "disk_bytes": disk,
        "search_data_bytes": data,
        "error_pages": built.entries,
        "api_pages": built.apis,
        "search_ms": search,
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    mb = 1e6
    print(
        f"build: render {result['render_s_median']:.2f} s + write "
        f"{result['write_s_median']:.2f} s (median of {args.runs})"
    )
    print(
        f"site: {built.files} files, {built.bytes / mb:.1f} MB ({disk / mb:.1f} MB on disk), "
        f"search data {data / mb:.2f} MB"
    )
    if search:
        print(
            f"search under Node: matcher ready {search['ready']:.0f} ms; per text "
            f"p50 {search['p50']:.2f} ms, p95 {search['p95']:.2f} ms, max {search['max']:.1f} ms "
            f"over {search['texts']} tracebacks"
        )


if __name__ == "__main__":
    main()
