"""jaxerr-ls: JAX's error knowledge in the editor."""

__version__ = "0.1.0"
