"""Run one catalog example in a fresh interpreter and report how it ended, as JSON on stdout.

Usage: python runner.py PROGRAM.py
Prints {"exception": ..., "message": ..., "traceback": ...}, or {"exception": null} when it ran
clean (the traceback as Python prints it: an entry identified by where a library raised a
Python-worded error is proven by its frames).
"""

import json
import runpy
import sys
import traceback


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
        text = "".join(traceback.format_exception(exc))
        result = {"exception": type(exc).__name__, "message": str(exc), "traceback": text}
    sys.stdout.flush()
    print("\n@@JAXERR-PROOF@@" + json.dumps(result))


main()
