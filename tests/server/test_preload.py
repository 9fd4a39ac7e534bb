"""The catalog is loaded once for every handler: a request cancelled while it loads (VS Code
cancels code action requests as the cursor moves) must not cancel the load for the others."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import asyncio
from jaxerr_ls.shells.lsp import preload

async def main():
    future = preload.start()
    waiter = asyncio.ensure_future(asyncio.wrap_future(future))
    await asyncio.sleep(0)
    waiter.cancel()  # what pygls does to a handler awaiting the catalog on $/cancelRequest
    await asyncio.sleep(0)
    catalog = await asyncio.wrap_future(future)
    print("loaded", len(catalog.entries) > 0)

asyncio.run(main())
"""


def test_a_cancelled_request_does_not_cancel_the_catalog_load() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "loaded True"
