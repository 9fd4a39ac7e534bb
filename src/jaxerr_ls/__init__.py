"""jaxerr-ls: JAX's error knowledge in the editor."""

from __future__ import annotations

from typing import Any

from jaxerr_ls.version import __version__

__all__ = [
    "__version__",
    "install",
    "load_ipython_extension",
    "uninstall",
    "unload_ipython_extension",
]


def load_ipython_extension(shell: Any) -> None:
    """`%load_ext jaxerr_ls`: explain JAX errors after their traceback in IPython/Jupyter/Colab."""
    from jaxerr_ls.shells.ipython.extension import load_ipython_extension as load

    load(shell)


def unload_ipython_extension(shell: Any) -> None:
    """`%unload_ext jaxerr_ls`."""
    from jaxerr_ls.shells.ipython.extension import unload_ipython_extension as unload

    unload(shell)


def install() -> None:
    """Explain uncaught JAX errors of a plain Python process on stderr, after the traceback."""
    from jaxerr_ls.shells.ipython.extension import install as install_hook

    install_hook()


def uninstall() -> None:
    """Undo `install()`."""
    from jaxerr_ls.shells.ipython.extension import uninstall as uninstall_hook

    uninstall_hook()
