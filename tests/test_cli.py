"""The command line as a user runs it: `jaxerr-ls explain`, `catalog ...`, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def jaxerr(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxerr_ls", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


@pytest.mark.parametrize(
    ("example", "entry_id", "line", "source"),
    [
        ("eager_shard_map_ref", "eager-shard-map-ref", 9, "ref = jax.new_ref(x)"),
        (
            "remote_ref_value",
            "pallas-mosaic-gpu-ref-not-reference",
            8,
            "peer = plgpu.remote_ref(x_ref[...], device_id=1)",
        ),
    ],
)
def test_explain_json_names_entry_and_user_line(
    example: str, entry_id: str, line: int, source: str
) -> None:
    done = jaxerr("explain", str(EXAMPLES / f"{example}.txt"), "--json", "--root", str(EXAMPLES))
    assert done.returncode == 0, done.stderr
    (traceback,) = json.loads(done.stdout)["tracebacks"]
    assert traceback["entry"]["id"] == entry_id
    assert traceback["entry"]["curated"] is True
    assert traceback["location"] == {
        "path": str(EXAMPLES / f"{example}.py"),
        "line": line,
        "in_workspace": True,
    }
    assert (EXAMPLES / f"{example}.py").read_text().splitlines()[line - 1].strip() == source
    assert set(traceback) == {
        "exception",
        "message",
        "entry",
        "fields",
        "location",
        "frames",
        "fixes",
        "causes",
    }
    user_frames = [f for f in traceback["frames"] if f["user"]]
    assert user_frames[-1]["line"] == line and user_frames[-1]["source"] == source
    assert not any(f["user"] for f in traceback["frames"] if "site-packages" in f["path"])


def test_explain_human_output_reads_well() -> None:
    done = jaxerr("explain", str(EXAMPLES / "eager_shard_map_ref.txt"), "--root", str(EXAMPLES))
    assert done.returncode == 0
    out = done.stdout
    assert out.startswith("ValueError: Eager shard_map cannot return a `jax.Ref`.")
    assert f"at {EXAMPLES / 'eager_shard_map_ref.py'}:9 in body" in out
    assert "ref = jax.new_ref(x)" in out
    assert "[eager-shard-map-ref]" in out
    assert "How to fix" in out and "jax.jit" in out
    assert "\x1b[" not in out  # no colour codes when not a terminal


def test_explain_reads_stdin() -> None:
    text = (EXAMPLES / "remote_ref_value.txt").read_text()
    done = jaxerr("explain", "-", "--json", stdin=text)
    assert done.returncode == 0
    assert json.loads(done.stdout)["tracebacks"][0]["entry"]["id"] == (
        "pallas-mosaic-gpu-ref-not-reference"
    )


def test_explain_without_traceback_says_so() -> None:
    done = jaxerr("explain", "-", stdin="all good, nothing failed\n")
    assert done.returncode == 0
    assert "No traceback found" in done.stdout
    done = jaxerr("explain", "-", "--json", stdin="hello\n")
    assert json.loads(done.stdout) == {"tracebacks": []}


def test_unmatched_message_gets_null_entry() -> None:
    text = 'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\nOSError: the disk is on fire\n'
    done = jaxerr("explain", "-", "--json", stdin=text)
    assert json.loads(done.stdout)["tracebacks"][0]["entry"] is None


def test_unreadable_input_exits_2_with_a_clear_message(tmp_path: Path) -> None:
    done = jaxerr("explain", str(tmp_path / "missing.txt"))
    assert done.returncode == 2
    assert "cannot read" in done.stderr and "missing.txt" in done.stderr
    assert "Traceback" not in done.stderr
    done = jaxerr("explain", str(tmp_path))
    assert done.returncode == 2 and "cannot read" in done.stderr


def test_catalog_list_json_has_contract_fields() -> None:
    done = jaxerr("catalog", "list", "--curated", "--json")
    assert done.returncode == 0
    entries = json.loads(done.stdout)
    ids = {e["id"] for e in entries}
    assert {"eager-shard-map-ref", "pallas-mosaic-gpu-ref-not-reference"} <= ids
    for e in entries:
        assert set(e) == {
            "id",
            "exception",
            "message",
            "title",
            "curated",
            "library",
            "apis",
            "fixes",
            "raised_at",
            "example",
        }
        assert e["curated"] is True
        # an entry no CPU can prove says why in `proof_skip` (`catalog show`) instead
        assert e["example"] is None or (e["example"]["before"] and e["example"]["after"])
    libraries = {e["id"]: e["library"] for e in entries}
    assert libraries["eager-shard-map-ref"] == "jax"
    assert libraries["flax-scope-param-shape"] == "flax"


def test_catalog_show() -> None:
    done = jaxerr("catalog", "show", "eager-shard-map-ref", "--json")
    data = json.loads(done.stdout)
    assert data["raised_at"] == [
        {
            "file": "jax/_src/shard_map.py",
            "line": 1522,
            "function": "_ref_raise_valueerror",
            "jax": "0.10.2",
        }
    ]
    assert "jax.shard_map" in data["apis"]
    human = jaxerr("catalog", "show", "eager-shard-map-ref")
    assert "Before:" in human.stdout and "After:" in human.stdout
    missing = jaxerr("catalog", "show", "no-such-entry")
    assert missing.returncode == 1 and "no entry 'no-such-entry'" in missing.stderr


def test_catalog_validate_passes_on_shipped_catalog() -> None:
    done = jaxerr("catalog", "validate")
    assert done.returncode == 0, done.stdout
    assert "0 problem(s)" in done.stdout


def test_version() -> None:
    done = jaxerr("--version")
    assert done.returncode == 0 and done.stdout.startswith("jaxerr-ls ")


def test_catalog_show_a_generated_entry_is_a_page() -> None:
    """jnp.arange's own check: the page says when, where (pinned), which APIs, which releases."""
    catalog = json.loads(jaxerr("catalog", "list", "--json").stdout)
    (entry,) = [e for e in catalog if e["message"].startswith("jax.numpy.arange: arguments must")]
    data = json.loads(jaxerr("catalog", "show", entry["id"], "--json").stdout)
    assert data["condition"] == "val is not None and np.ndim(val) != 0"
    assert data["apis"][0] == "jax.numpy.arange" and data["api_depths"][0] <= 1
    assert "0.4.26" in data["versions"] and "0.10.2" in data["versions"]
    page = jaxerr("catalog", "show", entry["id"]).stdout
    assert "raised when `val is not None and np.ndim(val) != 0` in `_arange`" in page
    site = data["raised_at"][0]
    assert f"https://github.com/jax-ml/jax/blob/jax-v0.10.2/{site['file']}#L{site['line']}" in page
    assert "APIs that raise it, most direct first" in page and "jax.numpy.arange" in page
    # Every catalogued release that raises it, older ones (catalog/older.py) included.
    releases = data["versions"]
    assert releases[-1] == "0.10.2" and len(releases) >= 33
    assert f"raised by {releases[0]}–0.10.2 ({len(releases)} releases)" in page
    assert len(page.splitlines()) >= 10
