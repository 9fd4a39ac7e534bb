"""jaxerr-ls side by side with jedi-language-server on the same generated 2,000-line JAX file.

Measures, per server: spawn -> initialize result, first hover on a JAX API, warm hover p50/p95,
code action latency, RSS (from /proc); for jaxerr-ls also traceback -> published diagnostics
(cold: the first one builds the message matcher; warm: the next ones). Prints a table with the
ratios the budgets are written in and writes bench/results/lsp.json.

Usage: .venv/bin/python bench/lsp_bench.py [--warm N]
"""

from __future__ import annotations

import argparse
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

# Budgets: ours / jedi-language-server's.
BUDGETS = {"start": 1.0, "first_hover": 0.1, "warm_hover_p50": 1.0}
RSS_SLACK_MB = 30.0

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
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
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
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except Exception:  # noqa: BLE001 - a bench must still finish
            self.process.kill()


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
    traceback_cold_s: float | None = None
    traceback_warm_p50_s: float | None = None
    hovers_answered: int = 0
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


def measure(name: str, command: list[str], folder: Path, text: str, warm: int) -> Result:
    result = Result(name)
    path = folder / "model.py"
    uri = path.as_uri()
    client = Client(command, folder)
    client.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": folder.as_uri(),
            "capabilities": capabilities(),
            "workspaceFolders": [{"uri": folder.as_uri(), "name": folder.name}],
        },
    )
    result.start_s = time.perf_counter() - client.started
    client.notify("initialized", {})
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
    client.close()
    return result


def report(ours: Result, jedi: Result) -> dict[str, Any]:
    ratios = {
        "start": ours.start_s / jedi.start_s,
        "first_hover": ours.first_hover_s / jedi.first_hover_s,
        "warm_hover_p50": ours.warm_hover_p50_s / jedi.warm_hover_p50_s,
    }
    rss_delta = ours.rss_mb - jedi.rss_mb
    rows = [
        ("spawn -> initialize result", ours.start_s, jedi.start_s, "start"),
        ("first hover (jax.jit)", ours.first_hover_s, jedi.first_hover_s, "first_hover"),
        ("warm hover p50", ours.warm_hover_p50_s, jedi.warm_hover_p50_s, "warm_hover_p50"),
        ("warm hover p95", ours.warm_hover_p95_s, jedi.warm_hover_p95_s, None),
        ("code action p50 (10 cursors)", ours.code_action_p50_s, jedi.code_action_p50_s, None),
        (
            "code action p50 (same cursor)",
            ours.code_action_repeat_p50_s,
            jedi.code_action_repeat_p50_s,
            None,
        ),
        ("traceback -> diagnostics (cold)", ours.traceback_cold_s, None, None),
        ("traceback -> diagnostics (warm p50)", ours.traceback_warm_p50_s, None, None),
    ]
    print(f"{'':38} {'jaxerr-ls':>12} {'jedi-ls':>12} {'ratio':>7}  budget")
    for label, a, b, key in rows:
        ratio = f"{a / b:7.3f}" if a is not None and b else "      -"
        budget = (
            f"<= {BUDGETS[key]}x {'ok' if ratios[key] <= BUDGETS[key] else 'OVER'}" if key else ""
        )
        print(f"{label:38} {ms(a):>12} {ms(b):>12} {ratio}  {budget}")
    rss_ok = "ok" if rss_delta <= RSS_SLACK_MB else "OVER"
    sizes = f"{ours.rss_mb:9.1f} MB {jedi.rss_mb:9.1f} MB {rss_delta:+7.1f}"
    print(f"{'RSS':38} {sizes}  <= +{RSS_SLACK_MB} MB {rss_ok}")
    print(f"hovers answered: jaxerr-ls {ours.hovers_answered}, jedi-ls {jedi.hovers_answered}")
    within = all(ratios[k] <= BUDGETS[k] for k in BUDGETS) and rss_delta <= RSS_SLACK_MB
    return {
        "machine": {
            "cpus": os.cpu_count(),
            "load_avg": os.getloadavg(),
            "python": sys.version.split()[0],
        },
        "servers": {"jaxerr-ls": asdict(ours), "jedi-language-server": asdict(jedi)},
        "ratios": ratios,
        "rss_delta_mb": rss_delta,
        "budgets": {**BUDGETS, "rss_slack_mb": RSS_SLACK_MB},
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
    args = parser.parse_args()
    # Both servers start from compiled bytecode, as `pip install` leaves them: jedi's site-packages
    # has its .pyc files; our editable source gets them here (the spawned servers write none).
    import compileall

    compileall.compile_dir(HERE.parent / "src" / "jaxerr_ls", quiet=1)
    text = generate()
    with tempfile.TemporaryDirectory(prefix="lsp-bench-") as tmp:
        folder = Path(tmp)
        (folder / "model.py").write_text(text)
        starts = start_medians(folder, args.starts)
        jedi = measure("jedi-language-server", JEDI, folder, text, args.warm)
        ours = measure("jaxerr-ls", OURS, folder, text, args.warm)
    # The start is the median of several spawns: one spawn varies by +-15% here.
    jedi.start_s = statistics.median(starts["jedi-language-server"])
    ours.start_s = statistics.median(starts["jaxerr-ls"])
    print(
        f"file: {text.count(chr(10))} lines; warm hovers: {args.warm}; "
        f"start: median of {args.starts} spawns each"
    )
    summary = report(ours, jedi)
    out = HERE / "results" / "lsp.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2) + "\n")
    print(f"wrote {out.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
