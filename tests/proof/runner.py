"""Run one catalog example in a fresh interpreter and report how it ended, as JSON on stdout.

Usage: python runner.py PROGRAM.py
Prints {"exception": ..., "message": ...}, or {"exception": null} when it ran clean.
"""

import json
import runpy
import sys


def main() -> None:
    path = sys.argv[1]
    sys.argv = [path]
    result: dict[str, object] = {"exception": None, "message": None}
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            result = {"exception": "SystemExit", "message": str(exc.code)}
    except BaseException as exc:  # noqa: BLE001 - we report every way a program can fail
        result = {"exception": type(exc).__name__, "message": str(exc)}
    sys.stdout.flush()
    print("\n@@JAXERR-PROOF@@" + json.dumps(result))


main()
