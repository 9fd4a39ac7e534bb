"""`jaxerr-ls catalog site OUT/` as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def jaxerr(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_catalog_site_writes_the_site_and_says_where(tmp_path: Path) -> None:
    out = tmp_path / "public" / "jaxerr"
    done = jaxerr("catalog", "site", str(out))
    assert done.returncode == 0, done.stderr
    assert f"open {out / 'index.html'}" in done.stdout
    assert (out / "index.html").is_file()
    show = jaxerr("catalog", "show", "tracer-bool-conversion", "--json")
    page_json = (out / "api" / "errors" / "tracer-bool-conversion.json").read_text()
    assert json.loads(page_json) == json.loads(show.stdout)


def test_catalog_site_on_an_unwritable_out_says_why(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file, not a folder")
    done = jaxerr("catalog", "site", str(tmp_path / "taken" / "site"))
    assert done.returncode == 2
    assert done.stderr.startswith("jaxerr-ls catalog site: cannot write")
    assert "Traceback" not in done.stderr
