"""How predictions are scheduled (`lsp/predict.py`), with real worker threads: one analysis per
document at a time; edits made while it runs wait for it, then only the newest text is analysed;
the superseded result is never published."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

from lsprotocol import types

from jaxerr_ls.shells.lsp.predict import Job, Predictions


def _diagnostic(text: str) -> types.Diagnostic:
    zero = types.Position(0, 0)
    return types.Diagnostic(range=types.Range(zero, zero), message=text)


def test_edits_during_an_analysis_wait_and_only_the_newest_runs() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        pool = ThreadPoolExecutor(max_workers=4)
        predictions = Predictions()
        release_first = threading.Event()
        first_started = threading.Event()
        ran: list[str] = []
        running = 0
        most_at_once = 0
        lock = threading.Lock()
        published: list[tuple[str, ...]] = []

        def run(job: Job) -> asyncio.Future[Mapping[str, tuple[types.Diagnostic, ...]]]:
            return loop.run_in_executor(pool, job)

        def job_for(text: str) -> Job:
            def job() -> Mapping[str, tuple[types.Diagnostic, ...]]:
                nonlocal running, most_at_once
                with lock:
                    running += 1
                    most_at_once = max(most_at_once, running)
                ran.append(text)
                if text == "first":
                    first_started.set()
                    assert release_first.wait(30)
                with lock:
                    running -= 1
                return {"file:///a.py": (_diagnostic(text),)}

            return job

        def publish(uris: frozenset[str]) -> None:
            published.append(tuple(d.message for d in predictions.get("file:///a.py")))

        def edit(text: str) -> None:
            predictions.schedule_job(
                "file:///a.py", lambda: job_for(text), run, publish, delay=0.01
            )

        edit("first")
        assert await loop.run_in_executor(None, first_started.wait, 30)
        for text in ("second", "third", "fourth"):  # typed while "first" is analysed
            edit(text)
            await asyncio.sleep(0.05)  # past the debounce: each would start an analysis
        assert ran == ["first"]  # the newer edits wait for it
        release_first.set()
        deadline = loop.time() + 30
        while not published and loop.time() < deadline:
            await asyncio.sleep(0.01)
        assert ran == ["first", "fourth"]  # the ones in between are never analysed
        assert published == [("fourth",)]  # the superseded result was never shown
        assert most_at_once == 1
        pool.shutdown()

    asyncio.run(scenario())


def test_a_failed_analysis_does_not_block_the_next() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        predictions = Predictions()
        published: list[str] = []

        def failing() -> Mapping[str, tuple[types.Diagnostic, ...]]:
            raise RuntimeError("boom")

        def fine() -> Mapping[str, tuple[types.Diagnostic, ...]]:
            return {"file:///b.py": (_diagnostic("ok"),)}

        def run(job: Job) -> asyncio.Future[Mapping[str, tuple[types.Diagnostic, ...]]]:
            return loop.run_in_executor(None, job)

        def publish(uris: frozenset[str]) -> None:
            published.extend(d.message for d in predictions.get("file:///b.py"))

        predictions.schedule_job("file:///b.py", lambda: failing, run, publish, delay=0.0)
        await asyncio.sleep(0.2)
        predictions.schedule_job("file:///b.py", lambda: fine, run, publish, delay=0.0)
        deadline = loop.time() + 30
        while not published and loop.time() < deadline:
            await asyncio.sleep(0.01)
        assert published == ["ok"]

    asyncio.run(scenario())
