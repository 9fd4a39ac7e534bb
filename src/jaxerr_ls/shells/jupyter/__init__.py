"""JupyterLab: the spec through which jupyter-lsp starts jaxerr-ls for notebooks."""
