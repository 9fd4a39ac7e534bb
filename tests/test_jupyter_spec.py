"""jaxerr-ls's spec for jupyter-lsp: found through the documented entry point group, valid
against jupyter-lsp's own schema, and starting a server that answers `initialize`.
(JupyterLab itself, in a browser: tests/editors/test_jupyterlab.py.)"""

from __future__ import annotations

import json
import subprocess
from importlib.metadata import entry_points

import pytest

from jaxerr_ls.shells.jupyter.spec import KEY, spec


def test_the_entry_point_names_the_spec() -> None:
    found = [ep for ep in entry_points(group="jupyter_lsp_spec_v1") if ep.name == KEY]
    assert len(found) == 1, "pyproject.toml's jupyter_lsp_spec_v1 entry point is not installed"
    assert found[0].load() is spec


def test_the_spec_is_valid_for_jupyter_lsp() -> None:
    schema = pytest.importorskip("jupyter_lsp.schema")
    specs = spec(None)
    errors = [e.message for e in schema.LANGUAGE_SERVER_SPEC_MAP.iter_errors(specs)]
    assert errors == []
    assert specs[KEY]["version"] == schema.SPEC_VERSION
    assert specs[KEY]["languages"] == ["python"]


def test_the_spec_starts_a_server_that_answers_initialize() -> None:
    argv = spec(None)[KEY]["argv"]
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    ).encode()
    exit_ = json.dumps({"jsonrpc": "2.0", "method": "exit"}).encode()
    frames = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(m), m) for m in (body, exit_))
    r = subprocess.run(argv, input=frames, capture_output=True, timeout=120)
    head, _, payload = r.stdout.partition(b"\r\n\r\n")
    assert head.startswith(b"Content-Length:"), r.stderr[-2000:]
    length = int(head.split(b"\r\n")[0].split(b":")[1])
    answer = json.loads(payload[:length])
    assert answer["id"] == 1 and answer["result"]["capabilities"]["hoverProvider"]
