-- jaxerr-ls: explains JAX errors (hover on JAX APIs, diagnostics from tracebacks, quick fixes).
-- Neovim 0.11+: with this directory on 'runtimepath', `vim.lsp.enable('jaxerr_ls')` is all it takes.
-- Override any field with vim.lsp.config('jaxerr_ls', { cmd = { '/path/to/venv/bin/jaxerr-ls' } }).
return {
  cmd = { 'jaxerr-ls' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', 'setup.py', '.git', '.jaxerr' },
}
