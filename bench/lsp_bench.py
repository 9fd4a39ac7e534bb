"""jaxerr-ls side by side with jedi-language-server on the same generated 2,000-line JAX file,
as a user gets it: jaxerr-ls with its default settings (predictions on) and with
`jaxerr.predict = false`, jedi-language-server in the same run.

Measures, per server: spawn -> initialize result, first hover on a JAX API right after the file
opens, warm hover p50/p95 (hovers sent while the file just opened is being analysed: the analysis
time is reported beside them), code action latency, the same hovers again once the analysis is in
(jaxerr-ls: with the hover in context's call table read; how many say what is at risk), a code
action on the line the analysis warns about, RSS (from /proc; for jaxerr-ls also with its
analysis worker process); for jaxerr-ls also traceback -> published diagnostics (cold: the first
one builds the message matcher; warm: the next ones). Then a 120,000-line file: hover and code
action timed right after it opens, and after an edit. Prints a table with the ratios the budgets
are written in and writes bench/results/lsp.json.

Usage: .venv/bin/python bench/lsp_bench.py [--warm N] [--starts N] [--huge-lines N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VENV_BIN = Path(sys.executable).parent
OURS = [sys.executable, "-m", "jaxerr_ls", "serve"]
JEDI = [str(VENV_BIN / "jedi-language-server")]
APIS = ["jax.jit", "jax.grad", "jax.vmap", "jax.lax.scan", "jnp.zeros", "jax.shard_map"]

# Budgets: ours / jedi-language-server's (issue 20); RSS: ours (with the worker) <= jedi's.
BUDGETS = {"start": 1.0, "first_hover": 0.1, "warm_hover_p50": 0.05, "settled_hover_p50": 0.05}
RSS_SLACK_MB = 0.0
HUGE_BUDGET_S = 1.0
PREDICT_OFF = {"jaxerr": {"predict": False}}
# The servers' caches (jedi's, our catalog copy and hover index) in the bench's own directory,
# filled by an untimed start of each: on a machine shared with other checkouts, another
# checkout's server replaces the user-wide catalog copy (one at a time) between our spawns.
CACHE_ENV: dict[str, str] = {}

HEADER = """import jax
import jax.numpy as jnp
from jax import lax
from functools import partial
from jax.sharding import PartitionSpec as P

"""

BLOCK = """
@partial(jax.jit, static_argnums=1)
def step_{n}(x, n):
    def body(carry, y):
        return carry + jnp.sin(y), carry
    total, ys = jax.lax.scan(body, 0.0, x)
    g = jax.grad(lambda z: jnp.sum(z ** 2))(x)
    v = jax.vmap(jnp.cos)(x)
    return total + jnp.zeros(n).sum() + g.sum() + v.sum()

"""


def generate(lines: int = 2000) -> str:
    text = HEADER
    n = 0
    while text.count("\n") < lines - 4:
        text += BLOCK.format(n=n)
        n += 1
    text += "mesh = jax.make_mesh((1,), ('x',))\n"
    text += "f = jax.shard_map(step_0, mesh=mesh, in_specs=P(), out_specs=P())\n"
    return text


def positions(text: str) -> list[tuple[int, int, str]]:
    """(line, character, api) of each JAX API use, in file order; ASCII file, so units = chars."""
    out = []
    for number, line in enumerate(text.splitlines()):
        for api in APIS:
            at = line.find(api + "(") if "(" not in api else -1
            if at < 0 and api == "jax.jit":
                at = line.find("jax.jit,")
            if at >= 0:
                out.append((number, at + len(api) - 1, api))
    return out


class Client:
    """A minimal LSP client over pipes: requests, notifications, answering server requests."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **CACHE_ENV}
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.notifications: list[tuple[float, dict[str, Any]]] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            self.inbox.put(json.loads(stream.read(length)))

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = 120.0) -> Any:
        self.next_id += 1
        wanted = self.next_id
        self._send({"id": wanted, "method": method, "params": params})
        while True:
            message = self.wait(timeout)
            if message.get("id") == wanted and "method" not in message:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result")

    def wait(self, timeout: float = 120.0) -> dict[str, Any]:
        message = self.inbox.get(timeout=timeout)
        if "method" in message and "id" in message:  # a request from the server
            self._send({"id": message["id"], "result": None})
        elif "method" in message:
            self.notifications.append((time.perf_counter(), message))
        return message

    def wait_for(self, method: str, since: int, timeout: float = 120.0) -> float:
        deadline = time.perf_counter() + timeout
        while True:
            for at, message in self.notifications[since:]:
                if message["method"] == method and message["params"].get("diagnostics"):
                    return at
            self.wait(max(0.01, deadline - time.perf_counter()))

    def rss_mb(self) -> float:
        return _rss_mb(self.process.pid)

    def tree_rss_mb(self) -> float:
        """The server's RSS plus its child processes' (jaxerr-ls: the analysis worker)."""
        return self.rss_mb() + sum(_rss_mb(pid) for pid in _children(self.process.pid))

    def first_publish(self, uri: str, since: float) -> float | None:
        """Seconds from `since` to the first publishDiagnostics for `uri`, if one came."""
        for at, message in self.notifications:
            method, params = message["method"], message["params"]
            if method == "textDocument/publishDiagnostics" and at >= since and params["uri"] == uri:
                return at - since
        return None

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except Exception:  # noqa: BLE001 - a bench must still finish
            self.process.kill()


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def capabilities() -> Any:
    from lsprotocol.converters import get_converter
    from pytest_lsp import client_capabilities

    return get_converter().unstructure(client_capabilities("visual-studio-code"))


@dataclass
class Result:
    server: str
    start_s: float = 0.0
    first_hover_s: float = 0.0
    warm_hover_p50_s: float = 0.0
    warm_hover_p95_s: float = 0.0
    code_action_p50_s: float = 0.0
    code_action_repeat_p50_s: float = 0.0
    rss_mb: float = 0.0
    rss_with_workers_mb: float = 0.0
    # didOpen -> the file's first publishDiagnostics (jaxerr-ls with predictions: the analysis)
    analysis_s: float | None = None
    hovers_done_s: float = 0.0  # didOpen -> the last warm hover answered
    traceback_cold_s: float | None = None
    traceback_warm_p50_s: float | None = None
    hovers_answered: int = 0
    # Hovers once the analysis is in (jaxerr-ls: its hover-in-context table read too), and how
    # many of them said what the call risks on its line.
    settled_hover_p50_s: float = 0.0
    settled_hover_p95_s: float = 0.0
    settled_hovers_in_context: int = 0
    code_action_warned_s: float = 0.0  # at the line the analysis warns about, once it is in
    code_actions_warned: int = 0
    notes: list[str] = field(default_factory=list)


def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:9.1f} ms"


def action_params(uri: str, spot: tuple[int, int, str]) -> dict[str, Any]:
    where = {"line": spot[0], "character": spot[1]}
    return {
        "textDocument": {"uri": uri},
        "range": {"start": where, "end": where},
        "context": {"diagnostics": []},
    }


def initialize(client: Client, folder: Path, options: Any = None) -> None:
    params: dict[str, Any] = {
        "processId": os.getpid(),
        "rootUri": folder.as_uri(),
        "capabilities": capabilities(),
        "workspaceFolders": [{"uri": folder.as_uri(), "name": folder.name}],
    }
    if options is not None:
        params["initializationOptions"] = options
    client.request("initialize", params)


def measure(
    name: str, command: list[str], folder: Path, text: str, warm: int, options: Any = None
) -> Result:
    result = Result(name)
    path = folder / "model.py"
    uri = path.as_uri()
    client = Client(command, folder)
    initialize(client, folder, options)
    result.start_s = time.perf_counter() - client.started
    client.notify("initialized", {})
    opened = time.perf_counter()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
    )
    spots = positions(text)

    def hover(spot: tuple[int, int, str]) -> tuple[float, Any]:
        began = time.perf_counter()
        answer = client.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": spot[0], "character": spot[1]}},
        )
        return time.perf_counter() - began, answer

    first = next(s for s in spots if s[2] == "jax.jit")
    result.first_hover_s, answer = hover(first)
    if answer is None:
        result.notes.append("first hover returned nothing")
    times = []
    for spot in (spots * (warm // len(spots) + 1))[:warm]:
        took, answer = hover(spot)
        times.append(took)
        result.hovers_answered += answer is not None
    result.hovers_done_s = time.perf_counter() - opened
    result.warm_hover_p50_s = statistics.median(times)
    result.warm_hover_p95_s = statistics.quantiles(times, n=20)[-1]
    actions = []
    for spot in spots[:10]:
        began = time.perf_counter()
        client.request("textDocument/codeAction", action_params(uri, spot))
        actions.append(time.perf_counter() - began)
    result.code_action_p50_s = statistics.median(actions)
    repeats = []
    for _ in range(10):  # the same cursor again: editors re-ask on every keystroke and move
        began = time.perf_counter()
        client.request("textDocument/codeAction", action_params(uri, spots[0]))
        repeats.append(time.perf_counter() - began)
    result.code_action_repeat_p50_s = statistics.median(repeats)
    # Once the file's analysis is in (and, for jaxerr-ls, the call table its hovers in context
    # read): the same hovers again, as a user gets them a few seconds after opening the file.
    if name == "jaxerr-ls":  # its warnings published (jedi's analysis is its own answers)
        with contextlib.suppress(queue.Empty):
            client.wait_for("textDocument/publishDiagnostics", 0, timeout=120)
    settled, in_context = [], 0
    for spot in (spots * (warm // len(spots) + 1))[:warm]:
        took, answer = hover(spot)
        settled.append(took)
        in_context += answer is not None and "At risk here" in str(answer)
    result.settled_hover_p50_s = statistics.median(settled)
    result.settled_hover_p95_s = statistics.quantiles(settled, n=20)[-1]
    result.settled_hovers_in_context = in_context
    # A code action where the analysis warns (`jnp.zeros(n)` in the first block: jaxerr-ls
    # offers a refactoring there once its analysis is in), as a user clicking the lightbulb.
    warned = next(s for s in spots if s[2] == "jnp.zeros")
    began = time.perf_counter()
    offered = client.request("textDocument/codeAction", action_params(uri, warned))
    result.code_action_warned_s = time.perf_counter() - began
    result.code_actions_warned = len(offered or [])
    if name == "jaxerr-ls":
        line = text.splitlines().index(
            "f = jax.shard_map(step_0, mesh=mesh, in_specs=P(), out_specs=P())"
        )
        traceback = (
            "Traceback (most recent call last):\n"
            f'  File "{path}", line {line + 1}, in <module>\n'
            "    f = jax.shard_map(step_0, mesh=mesh, in_specs=P(), out_specs=P())\n"
            "ValueError: Eager shard_map cannot return a `jax.Ref`. "
            "Please wrap your shard_map in `jax.jit`.\n"
        )
        runs = []
        for _ in range(6):
            client.request(
                "workspace/executeCommand", {"command": "jaxerr.clearDiagnostics", "arguments": []}
            )
            since = len(client.notifications)
            began = time.perf_counter()
            client.request(
                "workspace/executeCommand",
                {"command": "jaxerr.explainTraceback", "arguments": [traceback]},
            )
            runs.append(client.wait_for("textDocument/publishDiagnostics", since) - began)
        result.traceback_cold_s, result.traceback_warm_p50_s = runs[0], statistics.median(runs[1:])
    result.rss_mb = client.rss_mb()
    result.rss_with_workers_mb = client.tree_rss_mb()
    result.analysis_s = client.first_publish(uri, opened)
    client.close()
    return result


@dataclass
class Huge:
    """Requests on a huge file, each timed from the request (the file opened just before)."""

    lines: int
    hover_s: float | None = None
    code_action_s: float | None = None
    hover_after_edit_s: float | None = None
    code_action_after_edit_s: float | None = None
    notes: list[str] = field(default_factory=list)


def measure_huge(command: list[str], folder: Path, lines: int) -> Huge:
    text = generate(lines)
    found = Huge(text.count("\n"))
    path = folder / "huge.py"
    path.write_text(text)
    uri = path.as_uri()
    client = Client(command, folder)
    initialize(client, folder)
    client.notify("initialized", {})
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
    )
    spot = [s for s in positions(text) if s[2] == "jax.jit"][-1]  # near the end of the file

    def timed(method: str, params: dict[str, Any]) -> float | None:
        began = time.perf_counter()
        try:
            client.request(method, params, timeout=60)
        except queue.Empty:
            found.notes.append(f"{method} did not answer within 60 s")
            return None
        return time.perf_counter() - began

    hover = {"textDocument": {"uri": uri}, "position": {"line": spot[0], "character": spot[1]}}
    found.hover_s = timed("textDocument/hover", hover)
    found.code_action_s = timed("textDocument/codeAction", action_params(uri, spot))
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": 3, "character": 0},
                        "end": {"line": 3, "character": 0},
                    },
                    "text": "x = 1\n",
                }
            ],
        },
    )
    hover["position"] = {"line": spot[0] + 1, "character": spot[1]}
    found.hover_after_edit_s = timed("textDocument/hover", hover)
    found.code_action_after_edit_s = timed(
        "textDocument/codeAction", action_params(uri, (spot[0] + 1, spot[1], spot[2]))
    )
    client.close()
    return found


def ratios_of(ours: Result, jedi: Result) -> dict[str, float]:
    return {
        "start": ours.start_s / jedi.start_s,
        "first_hover": ours.first_hover_s / jedi.first_hover_s,
        "warm_hover_p50": ours.warm_hover_p50_s / jedi.warm_hover_p50_s,
        "warm_hover_p95": ours.warm_hover_p95_s / jedi.warm_hover_p95_s,
        "settled_hover_p50": ours.settled_hover_p50_s / jedi.settled_hover_p50_s,
        "code_action_p50": ours.code_action_p50_s / jedi.code_action_p50_s,
        "rss_with_workers": ours.rss_with_workers_mb / jedi.rss_with_workers_mb,
    }


def report(on: Result, off: Result, jedi: Result, huge: Huge | None) -> dict[str, Any]:
    rows: list[tuple[str, str, str | None]] = [
        ("spawn -> initialize result", "start_s", "start"),
        ("first hover (jax.jit)", "first_hover_s", "first_hover"),
        ("warm hover p50 (file being analysed)", "warm_hover_p50_s", "warm_hover_p50"),
        ("warm hover p95", "warm_hover_p95_s", None),
        ("hover p50, analysis in (+ context)", "settled_hover_p50_s", "settled_hover_p50"),
        ("hover p95, analysis in", "settled_hover_p95_s", None),
        ("code action p50 (10 cursors)", "code_action_p50_s", None),
        ("code action p50 (same cursor)", "code_action_repeat_p50_s", None),
        ("code action, warned line, analysis in", "code_action_warned_s", None),
        ("didOpen -> first diagnostics", "analysis_s", None),
        ("didOpen -> last warm hover answered", "hovers_done_s", None),
        ("traceback -> diagnostics (cold)", "traceback_cold_s", None),
        ("traceback -> diagnostics (warm p50)", "traceback_warm_p50_s", None),
    ]
    by_mode = {"predict on": ratios_of(on, jedi), "predict off": ratios_of(off, jedi)}
    print(f"{'':38} {'on':>11} {'ratio':>6} {'off':>11} {'ratio':>6} {'jedi-ls':>11}  budget")
    for label, key, budget in rows:
        a, b, c = getattr(on, key), getattr(off, key), getattr(jedi, key)
        ra = f"{a / c:6.3f}" if a is not None and c else "     -"
        rb = f"{b / c:6.3f}" if b is not None and c else "     -"
        verdict = ""
        if budget:
            worst = max(by_mode[m][budget] for m in by_mode)
            verdict = f"<= {BUDGETS[budget]}x {'ok' if worst <= BUDGETS[budget] else 'OVER'}"
        print(f"{label:38} {ms(a)} {ra} {ms(b)} {rb} {ms(c)}  {verdict}")
    for label, key in (
        ("RSS (server)", "rss_mb"),
        ("RSS (with child processes)", "rss_with_workers_mb"),
    ):
        a, b, c = getattr(on, key), getattr(off, key), getattr(jedi, key)
        print(f"{label:38} {a:8.1f} MB {a / c:6.3f} {b:8.1f} MB {b / c:6.3f} {c:8.1f} MB  <= 1x")
    analysing = on.analysis_s is None or on.analysis_s > on.hovers_done_s
    print(f"warm hovers (predict on) all answered while the file was being analysed: {analysing}")
    answered = on.hovers_answered, off.hovers_answered, jedi.hovers_answered
    print("hovers answered: on {}, off {}, jedi {}".format(*answered))
    in_context = on.settled_hovers_in_context, off.settled_hovers_in_context
    said = "hovers once the analysis is in, saying what is at risk: on {}, off {}"
    print(said.format(*in_context))
    offered = on.code_actions_warned, off.code_actions_warned, jedi.code_actions_warned
    print("code actions offered on the warned line: on {}, off {}, jedi {}".format(*offered))
    if huge is not None:
        print(f"{huge.lines:,}-line file (jaxerr-ls, predict on):")
        for label, value in (
            ("hover right after open", huge.hover_s),
            ("code action right after open", huge.code_action_s),
            ("hover after an edit", huge.hover_after_edit_s),
            ("code action after an edit", huge.code_action_after_edit_s),
        ):
            ok = value is not None and value <= HUGE_BUDGET_S
            print(f"  {label:36} {ms(value)}  <= {HUGE_BUDGET_S} s {'ok' if ok else 'OVER'}")
        for note in huge.notes:
            print(f"  {note}")
    within = all(ratios[k] <= BUDGETS[k] for ratios in by_mode.values() for k in BUDGETS) and all(
        ratios["rss_with_workers"] <= 1.0 for ratios in by_mode.values()
    )
    return {
        "machine": {
            "cpus": os.cpu_count(),
            "load_avg": os.getloadavg(),
            "python": sys.version.split()[0],
        },
        "servers": {
            "jaxerr-ls": asdict(on),
            "jaxerr-ls (predict off)": asdict(off),
            "jedi-language-server": asdict(jedi),
        },
        "ratios": by_mode["predict on"],
        "ratios_predict_off": by_mode["predict off"],
        "warm_hovers_during_analysis": analysing,
        "huge_file": asdict(huge) if huge is not None else None,
        "budgets": {**BUDGETS, "rss_slack_mb": RSS_SLACK_MB, "huge_file_s": HUGE_BUDGET_S},
        "within_budgets": within,
    }


def spawn_to_initialize(command: list[str], folder: Path) -> float:
    client = Client(command, folder)
    client.request(
        "initialize",
        {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": capabilities()},
    )
    took = time.perf_counter() - client.started
    client.close()
    return took


def start_medians(folder: Path, runs: int) -> dict[str, list[float]]:
    """Start times of both servers, interleaved so drift in machine load hits both alike."""
    samples: dict[str, list[float]] = {"jedi-language-server": [], "jaxerr-ls": []}
    for _ in range(runs):
        samples["jedi-language-server"].append(spawn_to_initialize(JEDI, folder))
        samples["jaxerr-ls"].append(spawn_to_initialize(OURS, folder))
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--warm", type=int, default=60, help="warm hovers per server")
    parser.add_argument("--starts", type=int, default=7, help="spawns per server for the start")
    parser.add_argument("--huge-lines", type=int, default=120_000, help="0: no huge file")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "lsp.json")
    args = parser.parse_args()
    # Both servers start from compiled bytecode, as `pip install` leaves them: jedi's site-packages
    # has its .pyc files; our editable source gets them here (the spawned servers write none).
    import compileall

    compileall.compile_dir(HERE.parent / "src" / "jaxerr_ls", quiet=1)
    text = generate()
    with tempfile.TemporaryDirectory(prefix="lsp-bench-") as tmp:
        folder = Path(tmp)
        (folder / "model.py").write_text(text)
        CACHE_ENV["XDG_CACHE_HOME"] = str(folder / "cache")
        # One start each first, untimed: caches (jedi's, our catalog copy and hover index) as a
        # user has them from the second start on.
        for command in (JEDI, OURS):
            warmup = Client(command, folder)
            initialize(warmup, folder)
            warmup.notify("initialized", {})
            opened = {"uri": (folder / "model.py").as_uri(), "languageId": "python"}
            warmup.notify(
                "textDocument/didOpen", {"textDocument": {**opened, "version": 1, "text": text}}
            )
            spot = positions(text)[0]
            warmup.request(
                "textDocument/hover",
                {
                    "textDocument": {"uri": opened["uri"]},
                    "position": {"line": spot[0], "character": spot[1]},
                },
            )
            warmup.close()
        starts = start_medians(folder, args.starts)
        jedi = measure("jedi-language-server", JEDI, folder, text, args.warm)
        on = measure("jaxerr-ls", OURS, folder, text, args.warm)
        off = measure("jaxerr-ls (predict off)", OURS, folder, text, args.warm, PREDICT_OFF)
        huge = measure_huge(OURS, folder, args.huge_lines) if args.huge_lines else None
    # The start is the median of several spawns: one spawn varies by +-15% here.
    jedi.start_s = statistics.median(starts["jedi-language-server"])
    on.start_s = off.start_s = statistics.median(starts["jaxerr-ls"])
    print(
        f"file: {text.count(chr(10))} lines; warm hovers: {args.warm}; "
        f"start: median of {args.starts} spawns each; load average {os.getloadavg()[0]:.1f}"
    )
    summary = report(on, off, jedi, huge)
    summary["start_samples"] = starts
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
