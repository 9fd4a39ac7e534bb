"""Run many catalog examples in one interpreter and report how each ended.

Usage: python batch_runner.py JOBS.json, where JOBS holds `[[program.py, result.json], ...]`.
JAX is imported once; each program runs in a child forked from this process (a fresh
interpreter per example costs seconds on a busy machine, and older releases are proved in the
suite). Each child writes `{"exception", "message", "traceback"}` to its result file, the
traceback printed as Python's default hook would (JAX's default filtering), without the runner's
own frames; `{"exception": null}` when it ran clean. Standard library and JAX only: it runs under
the python of any JAX release.
"""

import json
import os
import runpy
import signal
import sys
import traceback

import jax  # noqa: F401 - imported once, before forking
import jax.numpy  # noqa: F401

TIMEOUT = 180  # seconds per example


def _trim(exc, program, seen):
    """Drop the frames above the program (runpy, this runner) from every exception of a chain."""
    if exc is None or id(exc) in seen:
        return
    seen.add(id(exc))
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != program:
        tb = tb.tb_next
    if tb is not None:
        exc.__traceback__ = tb
    _trim(exc.__cause__, program, seen)
    _trim(exc.__context__, program, seen)


def _run(program, out):
    result = {"exception": None, "message": None, "traceback": ""}
    signal.alarm(TIMEOUT)
    sys.argv = [program]
    try:
        os.chdir(os.path.dirname(program))
        runpy.run_path(program, run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            result = {"exception": "SystemExit", "message": str(exc.code), "traceback": ""}
    except BaseException as exc:  # noqa: BLE001 - every way a program can fail is reported
        _trim(exc, program, set())
        text = "".join(traceback.format_exception(exc))
        result = {"exception": type(exc).__name__, "message": str(exc), "traceback": text}
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(result, handle)


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        jobs = json.load(handle)
    for program, out in jobs:
        pid = os.fork()
        if pid == 0:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            try:
                _run(program, out)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)


main()
