"""Predictive diagnostics: `jaxerr-ls check` throughput on real JAX libraries, and the server's
time from an edit (didChange) to updated predicted diagnostics on lsp_bench's 2,000-line file.

- check: every .py file of the pinned optax/equinox/diffrax/flax wheels (tests/library_code.py;
  downloaded on first use), parsed and checked from scratch each run; lines/s, median of runs.
- edit -> diagnostics: a push client (no pull capability) edits lsp_bench's generated file (2,000
  and 5,000 lines): every other edit adds a new jitted function branching on a traced argument
  near the middle (a new name each time, as typing makes new text), the next one removes it; the
  time from sending didChange to the publishDiagnostics showing the new predicted warning count.
  This includes the server's debounce (predict.DEBOUNCE_SECONDS). "hub": the same file with a
  `main()` calling every function, the edit typed into the middle function: one component, so
  each edit re-analyses all of it. Also
  in-process: the rules on the whole file from scratch, and the incremental checker on an edit.

Usage: .venv/bin/python bench/predict_bench.py [--runs N] [--edits N] [--server-only]
Writes bench/results/predict.json (--server-only keeps its "check" part).
To measure another checkout's server: PYTHONPATH=<its src> ... --server-only --out FILE.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from lsp_bench import OURS, Client, capabilities, generate, positions  # noqa: E402

from jaxerr_ls.analysis.build import _analyze_cached  # noqa: E402
from jaxerr_ls.rules import check_source  # noqa: E402
from jaxerr_ls.shells.cli.check import check_file  # noqa: E402
from jaxerr_ls.shells.lsp.predict import DEBOUNCE_SECONDS  # noqa: E402

try:
    from jaxerr_ls.rules.incremental import IncrementalChecker
except ImportError:  # an older checkout (PYTHONPATH): no incremental checker
    IncrementalChecker = None  # type: ignore[assignment,misc]
from tests.library_code import LIBRARIES, library_files  # noqa: E402

BUG = """
@jax.jit
def clip_{n}(x):
    if x > 0:
        return x
    return 0.0 * x
"""


def check_throughput(runs: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in sorted(LIBRARIES):
        files = [str(p) for p in library_files(name)]
        lines = sum(len(Path(p).read_text(errors="replace").splitlines()) for p in files)
        times = []
        findings = 0
        for _ in range(runs):
            _analyze_cached.cache_clear()
            started = time.perf_counter()
            findings = sum(len(check_file(p).findings) for p in files)
            times.append(time.perf_counter() - started)
        median = statistics.median(times)
        out[name] = {
            "version": LIBRARIES[name],
            "files": len(files),
            "lines": lines,
            "findings": findings,
            "median_s": round(median, 3),
            "lines_per_s": round(lines / median),
        }
        print(f"{name:8} {lines:6} lines  {median * 1000:7.0f} ms  {lines / median:8.0f} lines/s")
    total_lines = sum(v["lines"] for v in out.values())
    total_s = sum(v["median_s"] for v in out.values())
    out["all"] = {"lines": total_lines, "lines_per_s": round(total_lines / total_s)}
    print(f"all      {total_lines:6} lines  {total_lines / total_s:8.0f} lines/s")
    return out


def _texts(lines: int, hub: bool) -> tuple[str, Any]:
    """The clean text and, for n, the text with the n-th edit: a new buggy function in the middle,
    or (hub) a branch on the traced argument typed into the middle function, which main calls."""
    clean = generate(lines)
    count = clean.count("\ndef step_")
    if hub:
        calls = "".join(f"    step_{n}(x, 3)\n" for n in range(count))
        clean += f"\n\ndef main(x):\n{calls}"
    split = clean.splitlines(keepends=True)
    if hub:
        at = split.index(f"def step_{count // 2}(x, n):\n") + 1

        def edited(n: int) -> str:
            branch = f"    if x > {n}:\n        x = -x\n"
            return "".join(split[:at]) + branch + "".join(split[at:])

        return clean, edited
    middle = len(split) // 2
    while split[middle].strip():  # insert between blocks
        middle += 1

    def buggy(n: int) -> str:
        return "".join(split[:middle]) + BUG.format(n=n) + "".join(split[middle:])

    return clean, buggy


def _open(client: Client, uri: str, text: str, base: int) -> float | None:
    """Open the document; the time until its predicted warnings are published (None: not in
    120 s), then a second for the server to settle."""
    sent = time.perf_counter()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
    )
    shown = None
    while shown is None and time.perf_counter() < sent + 120:
        shown = next(
            (
                at
                for at, m in client.notifications
                if m["method"] == "textDocument/publishDiagnostics" and _predicted(m) == base
            ),
            None,
        )
        if shown is None:
            with contextlib.suppress(queue.Empty):
                client.wait(1.0)
    time.sleep(1.0)
    return None if shown is None else shown - sent


def _predicted(message: dict[str, Any]) -> int:
    diagnostics = message["params"]["diagnostics"]
    return sum(1 for d in diagnostics if (d.get("data") or {}).get("predicted"))


def edit_latency(edits: int, lines: int = 2000, hub: bool = False) -> dict[str, Any]:
    clean, buggy = _texts(lines, hub)
    base = len(check_source(clean))  # the generated file's own findings (shard_map of step_0)
    rules_times = []
    for text in (clean, buggy(0)) * 3:
        _analyze_cached.cache_clear()
        started = time.perf_counter()
        check_source(text)
        rules_times.append(time.perf_counter() - started)
    incremental_times = []
    if IncrementalChecker is not None:
        checker = IncrementalChecker()
        checker.check(clean)
        for number in range(1, 11):
            started = time.perf_counter()
            checker.check(buggy(number) if number % 2 else clean)
            incremental_times.append(time.perf_counter() - started)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.py"
        path.write_text(clean)
        uri = path.as_uri()
        caps = capabilities()
        caps.get("textDocument", {}).pop("diagnostic", None)  # push: measure publishDiagnostics
        client = Client(OURS, Path(folder))
        client.request(
            "initialize",
            {"processId": None, "rootUri": Path(folder).as_uri(), "capabilities": caps},
        )
        client.notify("initialized", {})
        opened = _open(client, uri, clean, base)
        latencies = []
        version = 1
        for number in range(edits):
            text, want = (buggy(number), base + 1) if number % 2 == 0 else (clean, base)
            version += 1
            since = len(client.notifications)
            sent = time.perf_counter()
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": text}],
                },
            )
            deadline = sent + 30
            got = None
            while got is None and time.perf_counter() < deadline:
                for at, message in client.notifications[since:]:
                    if (
                        message["method"] == "textDocument/publishDiagnostics"
                        and message["params"]["uri"] == uri
                        and _predicted(message) == want
                    ):
                        got = at
                        break
                else:
                    client.wait(max(0.01, deadline - time.perf_counter()))
            if got is None:
                raise RuntimeError(f"edit {number}: no updated diagnostics in 30 s")
            latencies.append(got - sent)
            time.sleep(0.5)
        client.close()
    result = {
        "file_lines": clean.count("\n"),
        "hub": hub,
        "debounce_s": DEBOUNCE_SECONDS,
        "edits": edits,
        "open_to_diagnostics_s": None if opened is None else round(opened, 4),
        "edit_to_diagnostics_p50_s": round(statistics.median(latencies), 4),
        "edit_to_diagnostics_max_s": round(max(latencies), 4),
        "rules_on_file_p50_s": round(statistics.median(rules_times), 4),
    }
    if incremental_times:
        result["incremental_on_edit_p50_s"] = round(statistics.median(incremental_times), 4)
    print(
        f"edit -> predicted diagnostics on {result['file_lines']} lines"
        f"{' (hub)' if hub else ''}: p50 "
        f"{result['edit_to_diagnostics_p50_s'] * 1000:.0f} ms (max "
        f"{result['edit_to_diagnostics_max_s'] * 1000:.0f} ms; debounce "
        f"{DEBOUNCE_SECONDS * 1000:.0f} ms; rules alone "
        f"{result['rules_on_file_p50_s'] * 1000:.0f} ms; incremental "
        f"{result.get('incremental_on_edit_p50_s', float('nan')) * 1000:.0f} ms)"
    )
    return result


def typing_burst(edits: int = 12, gap: float = 0.2) -> dict[str, Any]:
    """Typing into the hub file (each analysis re-reads all of it): `edits` didChange `gap` apart
    (past the debounce, so each would start an analysis), then at once a hover on `jax.jit`
    (served by a worker thread), and the time from the last edit until the warnings show it."""
    clean, edited = _texts(2000, True)
    base = len(check_source(clean))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hub.py"
        path.write_text(clean)
        uri = path.as_uri()
        caps = capabilities()
        caps.get("textDocument", {}).pop("diagnostic", None)
        client = Client(OURS, Path(folder))
        client.request(
            "initialize",
            {"processId": None, "rootUri": Path(folder).as_uri(), "capabilities": caps},
        )
        client.notify("initialized", {})
        _open(client, uri, clean, base)
        spot = next(s for s in positions(clean) if s[2] == "jax.jit")
        since = sent = 0
        for number in range(edits):
            # Comments typed into the middle function, then the branch (one more warning).
            text = edited(number)
            if number < edits - 1:
                text = text.replace(f"    if x > {number}:\n        x = -x\n", f"    # {number}\n")
            since, sent = len(client.notifications), time.perf_counter()
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": number + 2},
                    "contentChanges": [{"text": text}],
                },
            )
            end = time.perf_counter() + gap
            while time.perf_counter() < end:
                with contextlib.suppress(queue.Empty):
                    client.wait(max(0.001, end - time.perf_counter()))
        last = time.perf_counter()
        client.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": spot[0], "character": spot[1]}},
        )
        hover_s = time.perf_counter() - last
        got = None
        deadline = last + 120
        while got is None and time.perf_counter() < deadline:
            for at, message in client.notifications[since:]:
                if (
                    message["method"] == "textDocument/publishDiagnostics"
                    and _predicted(message) == base + 1
                ):
                    got = at
                    break
            else:
                with contextlib.suppress(queue.Empty):
                    client.wait(1.0)
        client.close()
    result = {
        "edits": edits,
        "gap_s": gap,
        "hover_after_burst_s": round(hover_s, 4),
        "last_edit_to_diagnostics_s": round(got - sent, 4) if got is not None else None,
    }
    print(f"typing burst on the hub file: {result}")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--server-only", action="store_true")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "predict.json")
    args = parser.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    results = {
        "machine": {"python": platform.python_version(), "processor": platform.machine()},
        "check": previous.get("check") if args.server_only else check_throughput(args.runs),
        "server": edit_latency(args.edits),
        "server_5000": edit_latency(args.edits, 5000),
        "server_hub": edit_latency(args.edits, 2000, hub=True),
        "typing_burst_hub": typing_burst(),
    }
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
