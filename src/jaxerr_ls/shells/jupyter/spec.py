"""jaxerr-ls's language-server spec for jupyter-lsp (JupyterLab's LSP proxy).

jupyter-lsp finds servers through the `jupyter_lsp_spec_v1` entry point group: each entry point
is a callable that takes jupyter-lsp's manager and returns `{key: spec}` (its schema: `argv`,
`languages`, `version` required). Nothing here imports jupyter-lsp, so the package does not
depend on it; the spec is plain data checked against jupyter-lsp's schema by the tests.
"""

from __future__ import annotations

import sys
from typing import Any

KEY = "jaxerr-ls"
SPEC_VERSION = 2  # jupyter_lsp.schema.SPEC_VERSION of jupyter-lsp 2.x

HOME = "https://github.com/jaxerr-ls/jaxerr-ls"


def spec(manager: Any = None) -> dict[str, dict[str, Any]]:
    """The spec jupyter-lsp starts jaxerr-ls with: this interpreter's `-m jaxerr_ls`, which is
    the environment the Jupyter server (and, usually, its kernel) runs in."""
    return {
        KEY: {
            "argv": [sys.executable, "-m", "jaxerr_ls"],
            "languages": ["python"],
            "version": SPEC_VERSION,
            "display_name": "jaxerr-ls (JAX errors)",
            "mime_types": ["text/python", "text/x-ipython"],
            # The server reads every document from didOpen/didChange, never from disk.
            "requires_documents_on_disk": False,
            "env": {"PYTHONUNBUFFERED": "1"},
            "urls": {"home": HOME, "issues": f"{HOME}/issues"},
            "install": {"pip": "pip install jaxerr-ls"},
        }
    }
