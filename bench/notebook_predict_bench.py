"""Predicted warnings in notebook cells: time to warnings on a 30-cell notebook.

- rules: the notebook's code cells joined and checked (`rules.check_cells`), caches cleared each
  run; median ms.
- open -> warnings: a push client with notebook sync opens the notebook (notebookDocument/didOpen);
  the time until publishDiagnostics puts the predicted warning on the cell that defines the buggy
  function (it is jitted in the next cell). A fresh server per run (the first open of a session).
- edit -> warnings: in the open notebook, the cell that jits the function alternates between
  `jax.jit(f)` and `f` (the warning sits on ANOTHER cell); the time from notebookDocument/didChange
  to the publishDiagnostics that adds or clears it. Includes the debounce (DEBOUNCE_SECONDS).

Usage: .venv/bin/python bench/notebook_predict_bench.py [--runs N] [--edits N] [--cells 30]
Writes bench/results/notebook_predict.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from lsp_bench import BLOCK, HEADER, OURS, Client, capabilities  # noqa: E402

from jaxerr_ls.analysis.build import _analyze_cached  # noqa: E402
from jaxerr_ls.analysis.cells import _join  # noqa: E402
from jaxerr_ls.rules import check_cells  # noqa: E402
from jaxerr_ls.shells.lsp.predict import DEBOUNCE_SECONDS  # noqa: E402

BUGGY = "def clip(x):\n    if x > 0:\n        return x\n    return 0.0 * x\n"
JITTED = "fast_clip = jax.jit(clip)\nfast_clip(jnp.float32(1.0))\n"
PLAIN = "fast_clip = clip\nfast_clip(jnp.float32(1.0))\n"


def notebook(cells: int) -> list[tuple[str, str]]:
    """(kind, source): imports, markdown notes, jitted blocks, `clip` and its jit near the end."""
    out: list[tuple[str, str]] = [("code", HEADER + "%matplotlib inline\n")]
    n = 0
    while len(out) < cells - 2:
        if n % 4 == 3:
            out.append(("markdown", f"## Step {n}\nWhat the next cells do."))
        else:
            out.append(("code", BLOCK.format(n=n).strip() + f"\n\nstep_{n}(jnp.ones(3), 2)\n"))
        n += 1
    return [*out, ("code", BUGGY), ("code", JITTED)]


def cell_uri(path: Path, index: int) -> str:
    return f"vscode-notebook-cell:{path.as_posix()}#cell{index}"


def _predicted(message: dict[str, Any], uri: str) -> int | None:
    if message["method"] != "textDocument/publishDiagnostics" or message["params"]["uri"] != uri:
        return None
    diagnostics = message["params"]["diagnostics"]
    return sum(1 for d in diagnostics if (d.get("data") or {}).get("predicted"))


def _wait_for(client: Client, since: int, uri: str, want: int, sent: float) -> float:
    deadline = sent + 60
    while time.perf_counter() < deadline:
        for at, message in client.notifications[since:]:
            if _predicted(message, uri) == want:
                return at - sent
        try:
            client.wait(max(0.01, deadline - time.perf_counter()))
        except Exception:  # noqa: BLE001 - queue.Empty: the deadline passed
            break
    raise RuntimeError(f"no {want} predicted warning(s) on {uri} within 60 s")


def _start(folder: Path) -> Client:
    caps = capabilities()
    caps.get("textDocument", {}).pop("diagnostic", None)  # push: measure publishDiagnostics
    caps["notebookDocument"] = {
        "synchronization": {"dynamicRegistration": True, "executionSummarySupport": True}
    }
    client = Client(OURS, folder)
    client.request(
        "initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": caps}
    )
    client.notify("initialized", {})
    return client


def _open(client: Client, path: Path, cells: list[tuple[str, str]]) -> None:
    client.notify(
        "notebookDocument/didOpen",
        {
            "notebookDocument": {
                "uri": path.as_uri(),
                "notebookType": "jupyter-notebook",
                "version": 1,
                "cells": [
                    {"kind": 2 if kind == "code" else 1, "document": cell_uri(path, i)}
                    for i, (kind, _) in enumerate(cells)
                ],
            },
            "cellTextDocuments": [
                {
                    "uri": cell_uri(path, i),
                    "languageId": "python" if kind == "code" else "markdown",
                    "version": 1,
                    "text": text,
                }
                for i, (kind, text) in enumerate(cells)
            ],
        },
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--cells", type=int, default=30)
    args = parser.parse_args()
    cells = notebook(args.cells)
    code = [(str(i), text) for i, (kind, text) in enumerate(cells) if kind == "code"]
    lines = sum(text.count("\n") + 1 for _, text in code)
    buggy, jit_cell = len(cells) - 2, len(cells) - 1

    rules_ms = []
    for _ in range(max(args.runs, 5)):
        _analyze_cached.cache_clear()
        _join.cache_clear()
        started = time.perf_counter()
        found = check_cells(code)
        rules_ms.append((time.perf_counter() - started) * 1000)
    assert [key for key, _ in found] == [str(buggy)], found

    open_s, edit_s = [], []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "thirty.ipynb"
        for run in range(args.runs):
            client = _start(folder)
            since = len(client.notifications)
            sent = time.perf_counter()
            _open(client, path, cells)
            open_s.append(_wait_for(client, since, cell_uri(path, buggy), 1, sent))
            if run == args.runs - 1:
                time.sleep(3.0)  # the catalog load settles before the edits are timed
                for number in range(args.edits):
                    text, want = (PLAIN, 0) if number % 2 == 0 else (JITTED, 1)
                    since = len(client.notifications)
                    sent = time.perf_counter()
                    client.notify(
                        "notebookDocument/didChange",
                        {
                            "notebookDocument": {"uri": path.as_uri(), "version": number + 2},
                            "change": {
                                "cells": {
                                    "textContent": [
                                        {
                                            "document": {
                                                "uri": cell_uri(path, jit_cell),
                                                "version": number + 2,
                                            },
                                            "changes": [{"text": text}],
                                        }
                                    ]
                                }
                            },
                        },
                    )
                    edit_s.append(_wait_for(client, since, cell_uri(path, buggy), want, sent))
                    time.sleep(0.3)
            client.close()
    result = {
        "machine": {"python": platform.python_version(), "processor": platform.machine()},
        "cells": len(cells),
        "code_cells": len(code),
        "code_lines": lines,
        "rules_p50_ms": round(statistics.median(rules_ms), 1),
        "open_to_warnings_p50_s": round(statistics.median(open_s), 3),
        "open_to_warnings_max_s": round(max(open_s), 3),
        "debounce_s": DEBOUNCE_SECONDS,
        "edit_to_warnings_p50_s": round(statistics.median(edit_s), 3),
        "edit_to_warnings_max_s": round(max(edit_s), 3),
        "runs": args.runs,
        "edits": args.edits,
    }
    print(
        f"{len(cells)} cells ({len(code)} code, {lines} lines): rules "
        f"{result['rules_p50_ms']} ms; open -> warnings p50 "
        f"{result['open_to_warnings_p50_s'] * 1000:.0f} ms (max "
        f"{result['open_to_warnings_max_s'] * 1000:.0f}); edit in the jitting cell -> warning on "
        f"the defining cell p50 {result['edit_to_warnings_p50_s'] * 1000:.0f} ms (max "
        f"{result['edit_to_warnings_max_s'] * 1000:.0f}; debounce {DEBOUNCE_SECONDS * 1000:.0f})"
    )
    (HERE / "results" / "notebook_predict.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
