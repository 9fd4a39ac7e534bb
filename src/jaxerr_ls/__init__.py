"""jaxerr-ls: JAX's error knowledge in the editor."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def load_ipython_extension(shell: Any) -> None:
    """`%load_ext jaxerr_ls`: explain JAX errors after their traceback in IPython/Jupyter/Colab."""
    from jaxerr_ls.ipython_ext import load_ipython_extension as load

    load(shell)


def unload_ipython_extension(shell: Any) -> None:
    """`%unload_ext jaxerr_ls`."""
    from jaxerr_ls.ipython_ext import unload_ipython_extension as unload

    unload(shell)


def install() -> None:
    """Explain uncaught JAX errors of a plain Python process on stderr, after the traceback."""
    from jaxerr_ls.ipython_ext import install as install_hook

    install_hook()


def uninstall() -> None:
    """Undo `install()`."""
    from jaxerr_ls.ipython_ext import uninstall as uninstall_hook

    uninstall_hook()
