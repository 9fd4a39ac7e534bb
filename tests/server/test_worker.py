"""The analysis worker process (`shells/lsp/worker.py`, driven by `analyser.py`): findings come
back from a real child process; a cancelled or over-budget analysis stops and the worker serves
the next; a dead worker fails what waited and is started again; the server's interpreter never
imports the rules for predictions."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from jaxerr_ls.shells.lsp.analyser import Analyser, Stopped

BRANCH = """import jax


@jax.jit
def relu(x):
    if x > 0:
        return x
    return 0.0 * x
"""


def long_file(blocks: int) -> str:
    """Seconds of analysis per thousand blocks (scan, grad and vmap in each jitted function)."""
    body = "".join(
        f"\n\n@jax.jit\ndef step_{n}(x, n):\n"
        "    def body(carry, y):\n        return carry + jax.numpy.sin(y), carry\n"
        "    total, ys = jax.lax.scan(body, 0.0, x)\n"
        "    g = jax.grad(lambda z: jax.numpy.sum(z ** 2))(x)\n"
        "    v = jax.vmap(jax.numpy.cos)(x)\n"
        "    return total + jax.numpy.zeros(n).sum() + g.sum() + v.sum()\n"
        for n in range(blocks)
    )
    return "import jax\n" + body


@pytest.fixture
def analyser() -> Iterator[Analyser]:
    found = Analyser()
    yield found
    found.close()


def test_findings_come_back_from_the_worker_process(analyser: Analyser) -> None:
    async def scenario() -> None:
        results = await asyncio.wait_for(analyser.submit("file", "a.py", None, BRANCH), 120)
        [finding] = results["a.py"]
        assert finding.entry == "tracer-bool-conversion" and finding.line == 5
        assert analyser.pid is not None and analyser.pid != os.getpid()
        cells = [("cell1", "import jax\n"), ("cell2", BRANCH.replace("import jax\n", ""))]
        by_cell = await asyncio.wait_for(analyser.submit("cells", "nb", None, cells), 120)
        assert by_cell["cell1"] == [] and [f.entry for f in by_cell["cell2"]] == [
            "tracer-bool-conversion"
        ]

    asyncio.run(scenario())


def test_cancel_stops_a_long_analysis_and_the_next_is_served(analyser: Analyser) -> None:
    async def scenario() -> None:
        await asyncio.wait_for(analyser.submit("file", "warm.py", None, "import jax\n"), 120)
        long = analyser.submit("file", "long.py", None, long_file(3000))
        await asyncio.sleep(0.5)  # it is running by now (it takes tens of seconds)
        analyser.cancel("long.py")
        with pytest.raises(Stopped, match="cancelled"):
            await asyncio.wait_for(long, 60)
        results = await asyncio.wait_for(analyser.submit("file", "a.py", None, BRANCH), 120)
        assert [f.entry for f in results["a.py"]] == ["tracer-bool-conversion"]

    asyncio.run(scenario())


def test_over_budget_analysis_is_stopped(
    analyser: Analyser, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JAXERR_LS_ANALYSIS_BUDGET", "5")

    async def scenario() -> None:
        with pytest.raises(Stopped, match="over the 5 s budget"):
            await asyncio.wait_for(analyser.submit("file", "long.py", None, long_file(6000)), 120)
        results = await asyncio.wait_for(analyser.submit("file", "a.py", None, "import jax\n"), 60)
        assert results == {"a.py": []}

    asyncio.run(scenario())


def test_a_dead_worker_fails_what_waited_and_is_restarted(analyser: Analyser) -> None:
    async def scenario() -> None:
        long = analyser.submit("file", "long.py", None, long_file(3000))
        first = analyser.pid
        assert first is not None
        await asyncio.sleep(0.5)
        os.kill(first, 9)
        with pytest.raises(Stopped, match="exited"):
            await asyncio.wait_for(long, 60)
        results = await asyncio.wait_for(analyser.submit("file", "a.py", None, BRANCH), 120)
        assert [f.entry for f in results["a.py"]] == ["tracer-bool-conversion"]
        assert analyser.pid not in (None, first)

    asyncio.run(scenario())


def test_the_server_does_not_import_the_rules_for_predictions() -> None:
    """The rules (and the analysis they build) stay in the worker: the server's memory and its
    interpreter are the editor's requests' alone."""
    probe = (
        "import sys\n"
        "import jaxerr_ls.shells.lsp.server\n"
        "print(sorted(m for m in sys.modules if m.startswith(('jaxerr_ls.rules', "
        "'jaxerr_ls.analysis'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


def test_the_server_starts_without_the_catalog_loader_matcher_or_parser() -> None:
    """Answering `initialize` needs none of them (they load in the background, or with the first
    traceback): importing them at start made the server slower to start than
    jedi-language-server."""
    heavy = (
        "jaxerr_ls.catalog.load",
        "jaxerr_ls.catalog.match",
        "jaxerr_ls.tracebacks.parse",
        "jaxerr_ls.explain.build",
    )
    probe = (
        "import sys\n"
        "import jaxerr_ls.shells.cli.main, jaxerr_ls.shells.lsp.server\n"
        f"print(sorted(m for m in sys.modules if m in {heavy!r}))\n"
        "from jaxerr_ls.catalog import Matcher\n"
        "from jaxerr_ls.explain import explain_text\n"
        "print(Matcher.__module__, explain_text.__module__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.split("\n")[:2] == ["[]", "jaxerr_ls.catalog.match jaxerr_ls.explain.build"]


def test_a_file_over_the_limit_is_not_analysed_and_the_log_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from pygls.workspace.position_codec import PositionCodec

    from jaxerr_ls.shells.lsp.predict import MAX_LINES, Predictions

    source = "import jax\n" + "x = jax.numpy.zeros(3)\n" * MAX_LINES
    lines = source.splitlines(True)
    asked: list[object] = []

    def run(job: object) -> asyncio.Future[object]:
        asked.append(job)
        raise AssertionError("a file over the limit was sent for analysis")

    async def scenario() -> None:
        predictions = Predictions()
        snapshot = (1, source, lines, PositionCodec())
        with caplog.at_level("INFO"):
            predictions.schedule(
                "file:///huge.py", lambda: snapshot, run, lambda uris: None, delay=0.0
            )
            await asyncio.sleep(0.2)
        assert asked == []
        assert f"{len(lines)} lines, over the {MAX_LINES} analysed" in caplog.text

    asyncio.run(scenario())


METHOD = """from jax import jit


class A1:
    @jit
    def f(self, x):
        return x


print(A1().f(5))
"""


def test_a_call_table_comes_back_while_a_long_analysis_runs(analyser: Analyser) -> None:
    """Hovers in context read the worker's call table (issue 20): it is not queued behind the
    analyses, and it says what the call on a line risks."""

    async def scenario() -> None:
        await asyncio.wait_for(analyser.submit("file", "warm.py", None, "import jax\n"), 120)
        long = analyser.submit("file", "long.py", None, long_file(3000))  # tens of seconds
        table = await asyncio.wait_for(analyser.submit("context", "m.py", None, METHOD), 60)
        assert not long.done()
        assert table.shape(4, 6, "jax.jit").entry_ids == ("jit-method-self",)  # on `@jit`
        broken = await asyncio.wait_for(analyser.submit("context", "b.py", None, "def f(:\n"), 60)
        assert broken is None  # a text that does not parse has no table
        analyser.cancel("long.py")
        with pytest.raises(Stopped):
            await asyncio.wait_for(long, 60)

    asyncio.run(scenario())
