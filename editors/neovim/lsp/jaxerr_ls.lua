-- jaxerr-ls: explains JAX errors (hover on JAX APIs, diagnostics from tracebacks, quick fixes).
-- Neovim 0.11+: with this directory on 'runtimepath', `vim.lsp.enable('jaxerr_ls')` is all it takes.
-- Override any field with vim.lsp.config('jaxerr_ls', { cmd = { '/path/to/venv/bin/jaxerr-ls' } }).
return {
  cmd = { 'jaxerr-ls' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', 'setup.py', '.git', '.jaxerr' },
  -- The project's interpreter (vim.g.jaxerr_interpreter, else the first python on PATH): the
  -- server reads its installed jax version from the metadata, to prefer that release's wording.
  before_init = function(params, _)
    local python = vim.g.jaxerr_interpreter
    if python == nil or python == '' then
      python = vim.fn.exepath('python')
      if python == '' then
        python = vim.fn.exepath('python3')
      end
    end
    if python ~= '' then
      params.initializationOptions = vim.tbl_deep_extend(
        'force', params.initializationOptions or {}, { jaxerr = { interpreter = python } })
    end
  end,
}
