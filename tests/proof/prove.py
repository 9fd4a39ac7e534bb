"""Prove curated examples against real JAX: `before` raises the entry's error, `after` runs clean.

Also a command for authors: `python -m tests.proof.prove [ID ...]` (from the repository root).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from jaxerr_ls.catalog import Entry, Match, Matcher, load_catalog
from jaxerr_ls.catalog.templates import short_class
from jaxerr_ls.explain import match_exception

RUNNER = Path(__file__).with_name("runner.py")
ROOT = Path(__file__).resolve().parents[2]
BATCH_RUNNER = Path(__file__).with_name("batch_runner.py")
MARK = "@@JAXERR-PROOF@@"
TIMEOUT = 240
STABLE_DIR = "/tmp/jaxerr-examples"


@dataclass(frozen=True)
class Outcome:
    exception: str | None
    message: str | None
    output: str
    traceback: str = ""  # as Python printed it ("" when unknown or it ran clean)


def run_program(source: str, python: str = sys.executable) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "example.py"
        program.write_text(source, encoding="utf-8")
        env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONHASHSEED="0")
        done = subprocess.run(
            [python, str(RUNNER), str(program)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            cwd=tmp,
            env=env,
        )
    output = done.stdout + done.stderr
    head, _, tail = done.stdout.rpartition(MARK)
    if not _:
        return Outcome("<no result>", f"exit {done.returncode}", output)
    data = json.loads(tail.strip().splitlines()[0])
    return Outcome(data["exception"], data["message"], output, data.get("traceback", ""))


@dataclass(frozen=True)
class Proof:
    entry: Entry
    before: Outcome
    after: Outcome

    def problems(self, matcher: Matcher) -> list[str]:
        found: list[str] = []
        before = self.before
        if before.exception is None:
            found.append("`before` ran without an error")
        elif short_class(before.exception) != short_class(self.entry.exception):
            found.append(
                f"`before` raised {before.exception}, not {self.entry.exception}: {before.message}"
            )
        else:
            # As `explain` matches it, for the release the example is about.
            assert self.entry.example is not None
            version = self.entry.example.jax or None
            match = match_exception(before.exception, before.message or "", matcher, version)
            by_frames = self.entry.python_errors or self.entry.python_worded
            if by_frames and (match is None or match.entry.id != self.entry.id):
                # Python's wording: identified by its frames (where it was raised or called).
                match = _by_traceback(before.traceback, matcher, version) or match
            if match is None or match.entry.id != self.entry.id:
                got = match.entry.id if match else None
                found.append(f"`before`'s message matched {got}, not the entry: {before.message}")
        if self.after.exception is not None:
            found.append(
                f"`after` raised {self.after.exception}: {self.after.message}\n{self.after.output}"
            )
        return found


def _by_traceback(text: str, matcher: Matcher, version: str | None) -> Match | None:
    from jaxerr_ls.explain.build import match_traceback
    from jaxerr_ls.tracebacks import parse_tracebacks

    found = parse_tracebacks(text)
    return match_traceback(found[-1], matcher, version) if found else None


def python_for(release: str) -> str:
    """This interpreter, or a venv with the JAX release an example is about."""
    if not release:
        return sys.executable
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "jax-venv"), release],
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    return done.stdout.strip().splitlines()[-1]


def prove(entries: list[Entry], workers: int = 2) -> list[Proof]:
    def one(entry: Entry) -> Proof:
        assert entry.example is not None
        python = python_for(entry.example.jax)
        return Proof(
            entry,
            run_program(entry.example.before, python),
            run_program(entry.example.after, python),
        )

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, entries))


def prove_batch(
    entries: list[Entry], python: str, workers: int = 2, filtering: str = ""
) -> list[Proof]:
    """Like `prove`, under another interpreter (an older JAX), a few processes for all examples.

    An outcome's `output` is the traceback the program printed (empty when it ran clean), with
    JAX's traceback `filtering` mode when given (default: JAX's default)."""
    with tempfile.TemporaryDirectory() as tmp:
        jobs: list[list[str]] = []
        for entry in entries:
            assert entry.example is not None
            for side, source in (("before", entry.example.before), ("after", entry.example.after)):
                folder = Path(tmp) / entry.id / side
                folder.mkdir(parents=True)
                (folder / "example.py").write_text(source, encoding="utf-8")
                jobs.append([str(folder / "example.py"), str(folder / "result.json")])
        shares = [jobs[start::workers] for start in range(workers)]
        env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONHASHSEED="0")
        env = {k: v for k, v in env.items() if k != "JAX_TRACEBACK_FILTERING"}
        if filtering:
            env["JAX_TRACEBACK_FILTERING"] = filtering
        running = []
        for number, share in enumerate(s for s in shares if s):
            listing = Path(tmp) / f"jobs-{number}.json"
            listing.write_text(json.dumps(share), encoding="utf-8")
            running.append(
                subprocess.Popen(
                    [python, str(BATCH_RUNNER), str(listing)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    text=True,
                    env=env,
                    cwd=tmp,
                )
            )
        errors = [process.communicate(timeout=TIMEOUT * len(jobs))[1] for process in running]

        def outcome(entry: Entry, side: str) -> Outcome:
            result = Path(tmp) / entry.id / side / "result.json"
            if not result.exists():
                return Outcome("<no result>", "the child died or timed out", "\n".join(errors))
            # The temporary directory changes from run to run: print it as one stable path.
            data = json.loads(result.read_text(encoding="utf-8").replace(tmp, STABLE_DIR))
            return Outcome(data["exception"], data["message"], data["traceback"], data["traceback"])

        return [Proof(e, outcome(e, "before"), outcome(e, "after")) for e in entries]


def main(ids: list[str]) -> int:
    catalog = load_catalog()
    matcher = Matcher(catalog)
    chosen = [e for e in catalog.curated if e.example and (not ids or e.id in ids)]
    failed = 0
    for proof in prove(chosen):
        problems = proof.problems(matcher)
        failed += bool(problems)
        print(("FAIL " if problems else "ok   ") + proof.entry.id)
        for problem in problems:
            print("     " + problem.replace("\n", "\n     "))
    print(f"{len(chosen) - failed} proven, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
