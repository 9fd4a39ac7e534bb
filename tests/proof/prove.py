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

from jaxerr_ls.catalog import Entry, Matcher, load_catalog
from jaxerr_ls.catalog.match import short_class
from jaxerr_ls.explain import match_exception

RUNNER = Path(__file__).with_name("runner.py")
ROOT = Path(__file__).resolve().parents[2]
MARK = "@@JAXERR-PROOF@@"
TIMEOUT = 240


@dataclass(frozen=True)
class Outcome:
    exception: str | None
    message: str | None
    output: str


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
    return Outcome(data["exception"], data["message"], output)


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
            if match is None or match.entry.id != self.entry.id:
                got = match.entry.id if match else None
                found.append(f"`before`'s message matched {got}, not the entry: {before.message}")
        if self.after.exception is not None:
            found.append(
                f"`after` raised {self.after.exception}: {self.after.message}\n{self.after.output}"
            )
        return found


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
